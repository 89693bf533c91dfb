#!/bin/sh
# azd postprovision hook (azure.yaml). Bicep leaves a resource it no longer declares in place, so
# STAGING_INGEST_ENABLED=false (plan: stop) removes the worker container app here, as the
# Infrastructure workflow does; unset (plan: keep) leaves a running worker as it is. Needs the
# Azure CLI, signed in to the same subscription (az login). azd passes the outputs of main.bicep
# with their own names (ingestWorkerName, AZURE_RESOURCE_GROUP).
set -eu
if [ "${INGEST_WORKER_ACTION:-keep}" != stop ] || [ -z "${ingestWorkerName:-}" ]; then exit 0; fi
if az containerapp show --resource-group "$AZURE_RESOURCE_GROUP" --name "$ingestWorkerName" > /dev/null 2>&1; then
  az containerapp delete --yes --resource-group "$AZURE_RESOURCE_GROUP" --name "$ingestWorkerName"
  echo "Removed the ingest worker $ingestWorkerName"
else
  echo "No ingest worker to remove"
fi
