/** Deleting a group, after a confirmation that names it. */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../api/errors';
import type { UserGroup } from '../../api/model';
import { useDeleteUserGroup } from '../../queries/groups';
import { Dialog } from '../message-actions/Dialog';

export function DeleteGroupSection({ group }: { group: UserGroup }) {
  const { t } = useTranslation('groups');
  const ids = useId();
  const remove = useDeleteUserGroup(group.id);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);

  const confirm = () => {
    // mutateAsync: the group's removal event may unmount this section before the reply comes.
    remove.mutateAsync().then(
      () => void navigate('/groups'),
      () => setConfirming(false),
    );
  };

  return (
    <section className="groups-card groups-danger" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('delete.title')}</h2>
      <p className="groups-hint">{t('delete.hint')}</p>
      <div className="groups-actions">
        <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
          {t('delete.open')}
        </button>
        {remove.isError && (
          <span className="settings-status settings-status-error" role="alert">
            {errorText(remove.error)}
          </span>
        )}
      </div>
      {confirming && (
        <Dialog
          label={t('delete.confirmTitle', { name: group.name })}
          onClose={() => setConfirming(false)}
          footer={
            <>
              <button type="button" className="button" onClick={() => setConfirming(false)}>
                {t('delete.cancel')}
              </button>
              <button
                type="button"
                className="button button-danger"
                disabled={remove.isPending}
                onClick={confirm}
              >
                {t('delete.confirm')}
              </button>
            </>
          }
        >
          <p>{t('delete.confirmBody', { name: group.name, count: group.members.length })}</p>
        </Dialog>
      )}
    </section>
  );
}
