export { ProjectTrust, type HeldEntry, type ProjectTrustOptions } from './projectTrust';
export { FileTrustStore, MemoryTrustStore, TRUST_FILE, type TrustStore } from './trustStore';
export { trustFingerprint, trustedFieldsOf } from './fingerprint';
export { EntryAccess } from './entryAccess';
