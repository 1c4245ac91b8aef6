export { postUsageRecord, usageCapability, usageOf, usageWarningsOf, type UsageCapabilityOptions } from './usageCapability';
export { MODEL_TABLE } from './priceTable';
export type { UsageGain } from './usageService';
export { localDay } from './usageHistory';
