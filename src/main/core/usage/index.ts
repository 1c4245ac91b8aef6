export { usageCapability, usageOf, type UsageCapabilityOptions } from './usageCapability';
export { MODEL_TABLE } from './priceTable';
