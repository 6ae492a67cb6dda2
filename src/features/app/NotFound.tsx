import { Trans, useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { EmptyState } from '../../components/StatePanel';

/** An address that names no view or conversation. */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <EmptyState title={t('notFound.title')}>
      <Trans i18nKey="notFound.message" components={{ inbox: <Link to="/inbox" /> }} />
    </EmptyState>
  );
}
