export { ProjectTrust, type HeldEntry } from './projectTrust';
export { FileTrustStore, MemoryTrustStore, TRUST_FILE } from './trustStore';
export { EntryAccess } from './entryAccess';
