export { usageCapability, usageOf } from './usageCapability';
export { UsageService } from './usageService';
export { AGENT_USAGE, type AgentUsage } from './agentUsage';
export { USAGE_SOURCES } from './usageSources';
export { MODEL_TABLE, PRICE_TABLE_SOURCE } from './priceTable';
