// Apart from tables.ts, so that what only recognises the error (a command's exit code) does not load the Tables SDK.
export class StorageNotConfiguredError extends Error {
  constructor() {
    super('Neither AzureWebJobsStorage nor AzureWebJobsStorage__accountName / __tableServiceUri is set');
    this.name = 'StorageNotConfiguredError';
  }
}
