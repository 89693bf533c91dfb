#!/bin/sh
# Runs in the deployment script of modules/webPushKeys.bicep (Azure CLI container) at every deploy:
# makes the Web Push VAPID key pair once and keeps it. Browsers subscribe with the public key, so a
# new pair would make every browser subscribe again: a pair already in Key Vault is never replaced.
# VAULT_NAME: the environment's Key Vault. RETRY_SECONDS: wait between tries while the script's
# role assignment propagates (a refused read is retried, never taken for "no key yet").
set -eu
retry_seconds="${RETRY_SECONDS:-30}"
tries=10

# present, absent, or (exit 1) refused after every try.
state_of() {
  i=0
  while [ "$i" -lt "$tries" ]; do
    if err=$(az keyvault secret show --vault-name "$VAULT_NAME" --name "$1" --query id -o tsv 2>&1 >/dev/null); then
      echo present
      return 0
    fi
    case "$err" in
      *SecretNotFound*) echo absent; return 0 ;;
    esac
    i=$((i + 1))
    sleep "$retry_seconds"
  done
  echo "Key Vault $VAULT_NAME refused reading $1: $err" >&2
  return 1
}

private_state=$(state_of webpush-vapid-private-key)
public_state=$(state_of webpush-vapid-public-key)
if [ "$private_state" = present ] && [ "$public_state" = present ]; then
  echo "Web Push VAPID keys: kept the pair in Key Vault"
  exit 0
fi

b64url() { base64 | tr -d '\n=' | tr '+/' '-_'; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
openssl ecparam -name prime256v1 -genkey -noout -out "$dir/vapid.pem"
# SubjectPublicKeyInfo of a P-256 key ends with the 65-byte uncompressed point the browsers take.
public=$(openssl ec -in "$dir/vapid.pem" -pubout -outform DER 2>/dev/null | tail -c 65 | b64url)
# SEC1 ECPrivateKey: 7 bytes of header, then the 32-byte private scalar.
private=$(openssl ec -in "$dir/vapid.pem" -outform DER 2>/dev/null | head -c 39 | tail -c 32 | b64url)

i=0
# The private key first: a run that stops between the two finds the public key absent and makes a new pair.
until az keyvault secret set --vault-name "$VAULT_NAME" --name webpush-vapid-private-key --value "$private" \
  --content-type 'VAPID private key of Web Push (NOTIFY_WEBPUSH_PRIVATE_KEY)' --output none &&
  az keyvault secret set --vault-name "$VAULT_NAME" --name webpush-vapid-public-key --value "$public" \
    --content-type 'VAPID public key of Web Push (NOTIFY_WEBPUSH_PUBLIC_KEY)' --output none; do
  i=$((i + 1))
  if [ "$i" -ge "$tries" ]; then
    echo "Key Vault $VAULT_NAME refused storing the Web Push keys" >&2
    exit 1
  fi
  sleep "$retry_seconds"
done
echo "Web Push VAPID keys: made a new pair"
