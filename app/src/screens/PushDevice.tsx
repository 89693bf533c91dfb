import { useEffect, useState } from 'preact/hooks';
import { t, type TextKey } from '../i18n';
import { ErrorBox, Loading, Toggle, useAction, useApp } from '../ui';
import { pushFailure } from '../pushReasons';
import { disablePush, enablePush, pushState, type PushState } from '../webPush';

/**
 * "Push on this device": one switch for this browser's push subscription (app/src/webPush.ts).
 * Permission is asked only when the member switches it on. When the browser cannot (on an iPhone:
 * not from the Home Screen), or the member blocked notifications, the switch is disabled and the
 * line below says why and what to do; a switch that failed says whose part failed.
 */
export function PushDevice() {
  const { api } = useApp();
  const [state, setState] = useState<PushState | undefined>(undefined);
  const [round, setRound] = useState(0);
  /** Where the member just moved the switch: it stays there while the browser asks and the service answers. */
  const [pending, setPending] = useState<boolean | undefined>(undefined);
  const action = useAction();
  useEffect(() => {
    void action.run(async () => setState(await pushState(api)));
  }, [round]); // read again on "Try again"
  const switchable = state === 'on' || state === 'off';
  return (
    <fieldset class="card" data-testid="push-device">
      <legend>{t('push.device.title')}</legend>
      <p class="small muted">{t('push.device.hint')}</p>
      {state === undefined && action.busy ? <Loading /> : null}
      {state !== undefined ? (
        <>
          <Toggle
            label={t('push.device.switch')}
            checked={pending ?? state === 'on'}
            disabled={!switchable || action.busy}
            testId="push-device-switch"
            onChange={(on) => {
              setPending(on);
              void action.run(async () => setState(await (on ? enablePush(api) : disablePush(api)))).finally(() => setPending(undefined));
            }}
          />
          <p role="status" class="small" data-testid="push-device-state">
            {t(`push.device.state.${state}` as TextKey)}
          </p>
        </>
      ) : null}
      {action.error && state === undefined ? <ErrorBox error={action.error} onRetry={() => setRound(round + 1)} /> : null}
      {action.error && state !== undefined ? (
        <p class="state state-error" role="alert" data-testid="push-device-failure">
          {t(`push.device.failed.${pushFailure(action.error)}`)}
        </p>
      ) : null}
    </fieldset>
  );
}
