import { registerAzureSdk } from '../../telemetry/telemetry';

export type PushSdk = typeof import('./pushSdk');

let loading: Promise<PushSdk> | undefined;

/** The push SDKs, loaded on first use (pushSdk.ts); a failed load is tried again by the next call. */
export function loadPushSdk(): Promise<PushSdk> {
  loading ??= import('./pushSdk').then(
    (sdk) => {
      registerAzureSdk(sdk);
      return sdk;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
