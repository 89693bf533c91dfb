#!/bin/sh
# azd preprovision hook (azure.yaml). The azd environment's name is the deployment environment;
# the staging ingest worker plan comes from STAGING_INGEST_ENABLED / STAGING_INGEST_REPLICAS
# (`azd env set`) through the same command the Infrastructure workflow runs, and becomes the Bicep
# parameters INGEST_WORKER_ENABLED / INGEST_WORKER_REPLICAS (infra/main.parameters.json). Needs
# the Azure CLI signed in to the same subscription for a provision of an existing environment.
set -eu
case "${AZURE_ENV_NAME:-}" in
  staging | production) ;;
  *)
    echo "The azd environment must be named staging or production (azd env new staging), not '${AZURE_ENV_NAME:-}'." >&2
    exit 1
    ;;
esac
if [ -z "${POSTGRES_ADMIN_PASSWORD:-}" ]; then
  echo "POSTGRES_ADMIN_PASSWORD is not set: azd env set POSTGRES_ADMIN_PASSWORD '<a strong password>' (docs/operations.md)." >&2
  exit 1
fi
npm run build > /dev/null
# The sign-in ids (azd env set AUTH_TENANT_ID / AUTH_PORTAL_CLIENT_ID / AUTH_APP_CLIENT_ID): never a placeholder.
node dist/ops.js deploy:check-sign-in
if [ "$AZURE_ENV_NAME" = staging ]; then
  plan=$(node dist/ops.js ingest:worker-plan "${STAGING_INGEST_ENABLED:-}" "${STAGING_INGEST_REPLICAS:-}")
else
  plan=$(node dist/ops.js ingest:worker-plan "" "")
fi
value() { printf '%s\n' "$plan" | sed -n "s/^$1=//p"; }
azd env set INGEST_WORKER_ACTION "$(value action)"
azd env set INGEST_WORKER_ENABLED "$(value enabled)"
azd env set INGEST_WORKER_REPLICAS "$(value replicas)"
echo "Ingest worker plan: $(value action)"
# SVC_INGEST_STATUS_ENABLED: only the Deploy Production workflow's rollout gate switches it
# (docs/operations.md). A provision keeps what the running app has (false for a new app), read
# as the Infrastructure workflow reads it; an SVC_INGEST_STATUS_ENABLED in the azd environment is ignored.
deployed=false
if [ -n "${functionAppName:-}" ] && [ -n "${AZURE_RESOURCE_GROUP:-}" ]; then
  deployed=$(az functionapp config appsettings list --name "$functionAppName" --resource-group "$AZURE_RESOURCE_GROUP" \
    --query "[?name=='SVC_INGEST_STATUS_ENABLED'].value | [0]" -o tsv 2>/dev/null || true)
  case "$deployed" in true | false) ;; *) deployed=false ;; esac
fi
if [ -n "${SVC_INGEST_STATUS_ENABLED:-}" ]; then
  echo "SVC_INGEST_STATUS_ENABLED in the azd environment is ignored: the rollout gate of Deploy Production switches it (kept: $deployed)." >&2
fi
azd env set INGEST_STATUS_ENABLED_DEPLOYED "$deployed"
