export { usageCapability, usageOf, type UsageCapabilityOptions } from './usageCapability';
export { MODEL_TABLE } from './priceTable';
export type { UsageService, UsageGain } from './usageService';
export type { Counted as UsageCounted } from './usageHistory';
export { localDay } from './usageHistory';
