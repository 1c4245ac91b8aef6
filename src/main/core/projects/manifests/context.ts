/** What proposal readers may ask about the machine (injected, so tests control it). */
export interface ProposalContext {
  /** Whether `command` is an executable on the user's PATH. */
  isOnPath(command: string): boolean;
}
