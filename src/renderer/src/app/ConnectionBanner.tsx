import { useUi } from './store';

/** Says when the link to the core is down and what is being done about it. */
export function ConnectionBanner() {
  const connection = useUi((s) => s.connection);
  if (connection.status === 'connected') return null;
  return (
    <div
      className={`connection-banner ${connection.status}`}
      role="status"
      aria-live="polite"
      data-testid="connection-banner"
      data-status={connection.status}
    >
      {connection.message}
    </div>
  );
}
