export { addressProblem, classifyAddress, parseNetworks, type AddressAllowance } from './addresses';
export {
  checkOutboundHost,
  checkOutboundUrl,
  defaultLookup,
  EgressRefusal,
  parseOutboundUrl,
  parseAllowRule,
  policyFromList,
  targetOf,
  type AllowRule,
  type EgressTarget,
  type EgressPolicy,
  type Lookup,
} from './urls';
export { checkedLookup, egressDispatcher } from './dispatcher';
