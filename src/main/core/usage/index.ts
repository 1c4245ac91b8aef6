export { postUsageRecord, usageCapability, usageOf, usageWarningsOf, type UsageCapabilityOptions } from './usageCapability';
export { MODEL_TABLE } from './priceTable';
export type { UsageGain } from './usageService';
export type { Counted } from './usageHistory';
export { localDay } from './usageHistory';
export { totalTokens } from './usageAccumulator';
