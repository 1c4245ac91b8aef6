/** The phone view's offer of push notifications, or why this browser cannot take them. */
import { useEffect, useState } from 'react';
import { errorText } from '../common/errorText';
import { currentSubscription, pushUnavailableReason, subscribeThisDevice, unsubscribeThisDevice } from '../pwa/pushSubscription';

export function NotifyOnThisDevice() {
  const [unavailable] = useState(pushUnavailableReason);
  const [subscription, setSubscription] = useState<PushSubscription | null>(null);
  const [notice, setNotice] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  useEffect(() => {
    void currentSubscription()
      .then(setSubscription)
      .catch(() => undefined);
  }, []);

  const act = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await work();
      setSubscription(await currentSubscription());
      setNotice(done);
    } catch (err) {
      setNotice(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="phone-notify" data-testid="phone-notify">
      {unavailable ? (
        <p className="phone-hint" data-testid="phone-notify-unavailable">
          {unavailable}
        </p>
      ) : subscription ? (
        <button
          disabled={isBusy}
          onClick={() => void act(() => unsubscribeThisDevice(subscription), 'Notifications are off on this device.')}
        >
          Stop notifying this device
        </button>
      ) : (
        <button
          disabled={isBusy}
          data-testid="phone-notify-on"
          onClick={() => void act(subscribeThisDevice, 'This device will be notified.')}
        >
          Notify me on this device
        </button>
      )}
      <div role="status" aria-live="polite" className="phone-notice" data-testid="phone-notify-notice">
        {notice}
      </div>
    </div>
  );
}
