import { useSyncExternalStore } from 'react';

/** The phone view takes over at this width and below (CSS pixels): a phone held upright, not a tablet. */
const PHONE_MAX_WIDTH_PX = 600;
const PHONE_QUERY = `(max-width: ${PHONE_MAX_WIDTH_PX}px)`;

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the window is phone-wide now; re-renders when it crosses the line (a rotation, a resized window). */
export function useIsPhoneWidth(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(PHONE_QUERY).matches);
}
