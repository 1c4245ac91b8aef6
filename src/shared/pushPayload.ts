/**
 * What a Web Push message carries to the phone view's service worker (docs/devices.md). One
 * notification per agent: `tag` names it, so newer news replaces older and `resolved` withdraws it.
 */
export interface PushAction {
  /** The notification button's id (`approve`, `deny`, …). */
  action: string;
  label: string;
  /** POSTed when the button is pressed; single-use and bound to the prompt and the device (the server checks). */
  url: string;
}

export interface PushPayload {
  event: 'attention' | 'resolved';
  tag: string;
  title: string;
  body: string;
  /** The project's id. */
  project: string;
  entryId: string;
  actions: PushAction[];
}
