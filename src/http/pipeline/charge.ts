import type { Resource } from '../../accounts/callerRepository.ts';
import type { Cost, Security } from '../definition.ts';
import type { Admitted, Guard } from '../guard.ts';
import type { Admission } from './admit.ts';
import type { Bill } from './bill.ts';

/** What a call costs: as declared, else one api_calls credit on key endpoints and nothing elsewhere. */
export function costOf<P, Q, B>(declared: Cost<P, Q, B> | null | undefined, security: Security): Cost<P, Q, B> | null {
  if (declared !== undefined) return declared;
  return security === 'apiKey' ? { resource: 'api_calls' } : null;
}

/**
 * The usual cost, one api_calls credit: a keyed request's admission takes it in its own round trip. A
 * deferred api_calls cost is not it: the handler takes what it counts (a clearance, one per class).
 */
export function isDefaultCost(cost: Pick<Cost<never, never, never>, 'resource' | 'units' | 'deferred'> | null): boolean {
  return cost?.resource === 'api_calls' && !cost.units && !cost.deferred;
}

/**
 * Takes the declared cost once every check that can refuse the request has passed, so that a refusal
 * for want of credits comes after them (429 quota_exceeded). The usual cost was taken at admission:
 * here it is only confirmed, and it is on the bill already.
 */
export async function chargeUpFront(guard: Guard, admitted: Admitted, resource: Resource, units: number, bill: Bill): Promise<void> {
  bill.add(await guard.charge(admitted, resource, units));
}

/**
 * ctx.charge of an endpoint with a deferred cost: the handler takes `units` credits (of the declared
 * resource unless it names another) once it knows what it hands out, before it hands anything out.
 * They go on the bill, so they are given back if the request fails afterwards.
 */
export function deferredCharge(
  guard: Guard,
  admission: Admission,
  cost: Pick<Cost<never, never, never>, 'resource' | 'deferred'> | null,
  bill: Bill,
  operationId: string,
) {
  return async (units: number, resource?: Resource): Promise<void> => {
    const admitted = admission.admitted;
    if (!cost?.deferred || !admitted) throw new Error(`${operationId} charges through ctx.charge without a deferred cost`);
    bill.add(await guard.charge(admitted, resource ?? cost.resource, units));
  };
}
