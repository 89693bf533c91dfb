#!/bin/sh
# Runs in the Replay Shooter Master Data workflow (.github/workflows/replay-shooter-master-data.yml)
# beside the release's dist/ops.js, with the staging hub, storage account and database in its
# environment. CLUB_IDS: validated club ids separated by
# spaces; GROUP_ID: the consumer group; NEW_GROUP: empty or --new-group. Each club's shooters
# backfill runs in turn; a failed club does not stop the others, but fails the run at the end.
set -eu
set -f
failed=""
for club in $CLUB_IDS; do
  echo "::group::Shooters backfill of club $club (group $GROUP_ID${NEW_GROUP:+, fresh from offset 0})"
  # NEW_GROUP is unquoted on purpose: empty adds no argument.
  if node dist/ops.js ingest:backfill-shooters "$club" "--group=$GROUP_ID" $NEW_GROUP; then
    echo "::endgroup::"
  else
    echo "::endgroup::"
    echo "::error title=Shooters backfill failed::club $club"
    failed="$failed $club"
  fi
done
if [ -n "$failed" ]; then
  echo "Shooters backfill failed for club(s):$failed"
  exit 1
fi
echo "Shooters backfill done for club(s): $CLUB_IDS"
