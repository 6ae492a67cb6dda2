/**
 * The ⋮ menu on a channel's sidebar row: its settings, pinning, muting and a colour. Each change
 * goes to the server; the subscription event then moves, greys or recolours the row.
 */
import { useId, useState, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../api/errors';
import type { Subscription } from '../../api/model';
import { useMenuPopup } from '../../components/use-menu-popup';
import { useSetSubscriptionProperty } from '../../queries/channels';
import { MoreIcon } from '../topics/icons';
import { channelSettingsUrl } from './channel-settings-url';
import { normalColor, PALETTE } from './privacy';

export function ChannelMenu({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation('channels');
  const save = useSetSubscriptionProperty(subscription.stream_id);
  // The colour swatches sit side by side, so left and right move between items too.
  const { open, setOpen, close, onMenuKey, root, button, onButtonClick, onButtonKey } =
    useMenuPopup({ arrowsAcross: true });
  const [error, setError] = useState<string | null>(null);
  const menuId = useId();

  const set = (property: string, value: boolean | string) => {
    close();
    setError(null);
    save.mutate({ property, value }, { onError: (e) => setError(errorText(e)) });
  };

  const label = t('menu.label', { name: subscription.name });
  return (
    <div className="channel-menu" ref={root}>
      <MenuButton
        buttonRef={button}
        label={label}
        open={open}
        menuId={menuId}
        onClick={onButtonClick}
        onKeyDown={onButtonKey}
      />
      {open && (
        <div
          id={menuId}
          className="channel-menu-list"
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
        >
          <MenuItems subscription={subscription} onLeave={() => setOpen(false)} set={set} />
        </div>
      )}
      {error && <MenuError error={error} onDismiss={() => setError(null)} />}
    </div>
  );
}

function MenuButton({
  buttonRef,
  label,
  open,
  menuId,
  onClick,
  onKeyDown,
}: {
  buttonRef: RefObject<HTMLButtonElement | null>;
  label: string;
  open: boolean;
  menuId: string;
  onClick: (event: MouseEvent) => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
}) {
  const { t } = useTranslation('channels');
  return (
    <button
      ref={buttonRef}
      type="button"
      className="icon-button channel-menu-button"
      aria-label={label}
      title={t('menu.title')}
      aria-haspopup="menu"
      aria-expanded={open}
      aria-controls={open ? menuId : undefined}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      <MoreIcon />
    </button>
  );
}

function MenuItems({
  subscription,
  onLeave,
  set,
}: {
  subscription: Subscription;
  /** Closes the menu without taking focus back, as the page changes. */
  onLeave: () => void;
  set: (property: string, value: boolean | string) => void;
}) {
  const { t } = useTranslation('channels');
  const navigate = useNavigate();
  const current = normalColor(subscription.color);
  return (
    <>
      <button
        type="button"
        role="menuitem"
        className="channel-menu-item"
        tabIndex={-1}
        onClick={() => {
          onLeave();
          void navigate(channelSettingsUrl(subscription.stream_id, 'personal'));
        }}
      >
        {t('menu.settings')}
      </button>
      <button
        type="button"
        role="menuitem"
        className="channel-menu-item"
        tabIndex={-1}
        onClick={() => set('pin_to_top', !subscription.pin_to_top)}
      >
        {subscription.pin_to_top ? t('menu.unpin') : t('menu.pin')}
      </button>
      <button
        type="button"
        role="menuitem"
        className="channel-menu-item"
        tabIndex={-1}
        onClick={() => set('is_muted', !subscription.is_muted)}
      >
        {subscription.is_muted ? t('menu.unmute') : t('menu.mute')}
      </button>
      <div className="channel-menu-colors" role="group" aria-label={t('menu.color')}>
        {PALETTE.map((color) => (
          <button
            key={color}
            type="button"
            role="menuitemradio"
            aria-checked={current === color}
            className="channel-palette-swatch channel-menu-swatch"
            style={{ background: color }}
            tabIndex={-1}
            aria-label={t('personal.colorName', { color })}
            onClick={() => set('color', color)}
          />
        ))}
      </div>
    </>
  );
}

function MenuError({ error, onDismiss }: { error: string; onDismiss: () => void }) {
  const { t } = useTranslation('channels');
  return (
    <span className="channel-menu-error" role="alert">
      {error}
      <button
        type="button"
        className="link-button"
        aria-label={t('menu.dismiss')}
        onClick={onDismiss}
      >
        ×
      </button>
    </span>
  );
}
