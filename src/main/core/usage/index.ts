export { usageCapability, usageOf, usageWarningsOf, type UsageCapabilityOptions } from './usageCapability';
export { MODEL_TABLE } from './priceTable';
