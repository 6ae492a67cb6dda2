/**
 * A list row's actions behind one ⋮ button (Edit, Deactivate…), for rows too narrow for a
 * button each: the button names its row ("Actions for Othello"), the items say what they do.
 */
import { useId } from 'react';
import { useMenuPopup } from './use-menu-popup';
import { MoreIcon } from '../features/topics/icons';

export interface RowMenuItem {
  label: string;
  onSelect(): void;
  /** shown in the danger colour */
  danger?: boolean;
}

export function RowMenu({
  label,
  items,
}: {
  /** the button's and the menu's accessible name */
  label: string;
  /** `false` leaves out an action this row does not offer */
  items: readonly (RowMenuItem | false)[];
}) {
  const { open, close, upwards, root, button, onButtonClick, onButtonKey, onMenuKey } =
    useMenuPopup();
  const menuId = useId();
  const offered = items.filter((item): item is RowMenuItem => item !== false);
  if (!offered.length) return null;
  return (
    <div className="row-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="icon-button row-menu-button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={onButtonClick}
        onKeyDown={onButtonKey}
      >
        <MoreIcon />
      </button>
      {open && (
        <div
          id={menuId}
          className="row-menu-list"
          data-upwards={upwards}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
        >
          {offered.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              className={item.danger ? 'row-menu-item row-menu-danger' : 'row-menu-item'}
              onClick={() => {
                // Focus goes back to the button first, so that a dialog the item opens returns it
                // there when it closes.
                close();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
