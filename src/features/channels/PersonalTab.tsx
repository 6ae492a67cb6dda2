/**
 * The person's own settings for a channel they are in: its colour, pinning, muting and
 * notifications. Each control saves at once; the subscription event updates the sidebar.
 */
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Subscription, UserSettings } from '../../api/model';
import { useUserSetting } from '../../model/hooks';
import { useSetSubscriptionProperty } from '../../queries/channels';
import { SettingsGroup, StatusNote, ToggleRow } from '../settings/controls';
import { normalColor, PALETTE } from './privacy';

type NotificationProperty =
  | 'desktop_notifications'
  | 'audible_notifications'
  | 'push_notifications'
  | 'email_notifications'
  | 'wildcard_mentions_notify';

/** Each per-channel notification property and the personal setting it defaults to. */
const NOTIFICATIONS: readonly (readonly [NotificationProperty, keyof UserSettings])[] = [
  ['desktop_notifications', 'enable_stream_desktop_notifications'],
  ['audible_notifications', 'enable_stream_audible_notifications'],
  ['push_notifications', 'enable_stream_push_notifications'],
  ['email_notifications', 'enable_stream_email_notifications'],
  ['wildcard_mentions_notify', 'wildcard_mentions_notify'],
];

export function PersonalTab({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation('channels');
  return (
    <>
      <ColorPicker subscription={subscription} />
      <SettingsGroup title={t('personal.display')}>
        <PropertyToggle
          subscription={subscription}
          property="pin_to_top"
          label={t('personal.pin')}
          checked={subscription.pin_to_top}
        />
        <PropertyToggle
          subscription={subscription}
          property="is_muted"
          label={t('personal.mute')}
          hint={t('personal.muteHint')}
          checked={subscription.is_muted}
        />
      </SettingsGroup>
      <SettingsGroup title={t('personal.notifications')}>
        {NOTIFICATIONS.map(([property, setting]) => (
          <NotificationToggle
            key={property}
            subscription={subscription}
            property={property}
            setting={setting}
          />
        ))}
      </SettingsGroup>
    </>
  );
}

function ColorPicker({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation('channels');
  const save = useSetSubscriptionProperty(subscription.stream_id);
  const inputId = useId();
  const current = normalColor(subscription.color);
  const [custom, setCustom] = useState(current);
  useEffect(() => setCustom(current), [current]);
  const choose = (color: string) => save.mutate({ property: 'color', value: color });
  return (
    <SettingsGroup title={t('personal.color')}>
      <div className="settings-row">
        <div className="channel-palette" role="group" aria-label={t('personal.palette')}>
          {PALETTE.map((color) => (
            <button
              key={color}
              type="button"
              className="channel-palette-swatch"
              style={{ background: color }}
              aria-label={t('personal.colorName', { color })}
              aria-pressed={current === color}
              disabled={save.isPending}
              onClick={() => choose(color)}
            />
          ))}
        </div>
      </div>
      <div className="settings-row">
        <label htmlFor={inputId}>{t('personal.customColor')}</label>
        <input
          id={inputId}
          type="color"
          className="channel-color-input"
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
        />
        <button
          type="button"
          className="button button-small"
          disabled={save.isPending || custom === current}
          onClick={() => choose(custom)}
        >
          {t('personal.useColor')}
        </button>
        <StatusNote save={save} />
      </div>
    </SettingsGroup>
  );
}

function PropertyToggle({
  subscription,
  property,
  label,
  hint,
  checked,
}: {
  subscription: Subscription;
  property: string;
  label: string;
  hint?: string;
  checked: boolean;
}) {
  const { save, shown, change } = useOptimisticToggle(subscription.stream_id, property, checked);
  return <ToggleRow label={label} hint={hint} checked={shown} onChange={change} save={save} />;
}

/**
 * A toggle shows the person's choice at once; the subscription event then confirms it (and a
 * refusal puts the stored value back, with the server's message beside the control).
 */
function useOptimisticToggle(streamId: number, property: string, stored: boolean) {
  const save = useSetSubscriptionProperty(streamId);
  const [pending, setPending] = useState<boolean | null>(null);
  useEffect(() => setPending(null), [stored]);
  const change = (value: boolean) => {
    setPending(value);
    save.mutate({ property, value }, { onError: () => setPending(null) });
  };
  return { save, shown: pending ?? stored, change };
}

function NotificationToggle({
  subscription,
  property,
  setting,
}: {
  subscription: Subscription;
  property: NotificationProperty;
  setting: keyof UserSettings;
}) {
  const { t } = useTranslation('channels');
  const fallback = useUserSetting(setting) === true;
  const own = subscription[property];
  const { save, shown, change } = useOptimisticToggle(
    subscription.stream_id,
    property,
    own ?? fallback,
  );
  const defaultText = fallback ? t('personal.on') : t('personal.off');
  return (
    <ToggleRow
      label={t(`personal.${property}`)}
      hint={
        own === null
          ? t('personal.asDefault', { value: defaultText })
          : t('personal.yourDefault', { value: defaultText })
      }
      checked={shown}
      onChange={change}
      save={save}
    />
  );
}
