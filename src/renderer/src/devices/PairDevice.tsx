/** The pairing page a device opens from the desktop's QR code or link: name it, pair, then the app loads. */
import { useState } from 'react';
import { cleanDeviceName, pairDevice, suggestedDeviceName } from './pairing';

export function PairDevice({ code }: { code: string | undefined }) {
  const [name, setName] = useState(() => suggestedDeviceName(navigator.userAgent));
  const [problem, setProblem] = useState<string>();
  const [isPairing, setPairing] = useState(false);
  const pair = async () => {
    if (!code) return;
    setPairing(true);
    setProblem(undefined);
    try {
      await pairDevice(code, name);
      location.replace('/');
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
      setPairing(false);
    }
  };
  return (
    <main className="phone pair-device" data-testid="pair-device">
      <h1>Pair this device with Switchboard</h1>
      {code ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void pair();
          }}
        >
          <label className="phone-project">
            Name of this device
            <input value={name} maxLength={60} onChange={(event) => setName(event.target.value)} data-testid="pair-name" />
          </label>
          <button type="submit" disabled={isPairing || cleanDeviceName(name) === ''} data-testid="pair-submit">
            Pair
          </button>
        </form>
      ) : (
        <p>This link has no pairing code. Open the link or QR code the desktop shows under Devices again.</p>
      )}
      <div role="alert" className="phone-notice" data-testid="pair-problem">
        {problem}
      </div>
    </main>
  );
}
