/** Calling the person away from the desk (docs/devices.md): attention news, its channels and the policy. */
export { AttentionService } from './attentionService';
export { PresenceBoard } from './presenceBoard';
