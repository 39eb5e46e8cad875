import type { Request, Response } from 'express';
import { checkBulk } from '../../accounts/planRules.ts';
import type { OwnWrites } from '../../db/ownWrites.ts';
import type { z } from '../../schema/zod.ts';
import type { AnyObject, CallerOf, EndpointDef, Security } from '../definition.ts';
import type { Guard } from '../guard.ts';
import { admit } from './admit.ts';
import { chargeUpFront, costOf, deferredCharge, isDefaultCost } from './charge.ts';
import { gateCategory, gateFeature } from './gate.ts';
import { identify } from './identify.ts';
import { readInput } from './input.ts';
import { checkResponse, send } from './respond.ts';
import { startHandler } from './run.ts';

/**
 * One endpoint's request handler, every request through the same steps: identify → admit (or start
 * early) → category → input → bulk limits → charge → handler → response check → JSON. Whatever
 * refuses or fails a request after admission gives back what is on its bill: errors cost nothing.
 */
export function pipeline<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType, S extends Security>(
  def: EndpointDef<P, Q, B, R, S>,
  guard: Guard,
  checkResponses: boolean,
  ownWrites?: OwnWrites,
): (req: Request, res: Response) => Promise<void> {
  const status = def.status ?? 200;
  const security: Security = def.security ?? 'none';
  const keyed = security === 'apiKey';
  const cost = costOf(def.cost, security);
  const defaultCredit = isDefaultCost(cost);
  // Read-only endpoints with the usual cost may start before their admission is known (see Guard.startEarly).
  const mayStartEarly = def.method === 'get' && keyed && def.cost === undefined && !def.bulk;
  const writes = def.method !== 'get';

  return async (req, res) => {
    const caller = await identify(guard, req, security, def.inactiveMessage);
    const bill = guard.bill();
    const admission = await admit(guard, req, res, caller, keyed, { defaultCredit, mayStartEarly }, bill);
    if (def.publicSearchLimit) await guard.publicSearch(req, res);
    let result: z.infer<R>;
    try {
      gateCategory(req, def.category);
      gateFeature(caller, def.feature);
      const { params, query, body } = await readInput(def, req, res);
      const charge = deferredCharge(guard, admission, cost, bill, def.operationId);
      const uncharge = (units: number) => (cost ? bill.givePart(cost.resource, units) : Promise.resolve());
      // identify() has refused a key or bearer request without a caller, so the handler is given one.
      const ctx = { params, query, body, req, res, caller: caller as CallerOf<S>, charge, uncharge };
      if (def.bulk) checkBulk(caller!, def.bulk.family, def.bulk.items(ctx));
      // An early start's handler runs while its admission is awaited; a refusal (429) wins over whatever it found.
      // Its reads kept off replicas that have not replayed the caller's last write (src/db/ownWrites.ts).
      const handle = () => (ownWrites ? ownWrites.around(caller?.accountId, () => def.handler(ctx)) : def.handler(ctx));
      const run = startHandler(handle, admission.early);
      const admitted = await admission.settle(bill);
      if (cost && !cost.deferred && admitted)
        await chargeUpFront(guard, admitted, cost.resource, defaultCredit ? 1 : (cost.units?.(ctx) ?? 1), bill);
      result = await run();
      if (checkResponses && !def.contentType) checkResponse(def.response, result, def.operationId);
      if (writes && caller && ownWrites) await ownWrites.wrote(caller.accountId);
    } catch (err) {
      // A check failed before an early request's admission was known: its refusal, if any, comes first.
      await admission.settle(bill);
      await bill.refundAll();
      throw err;
    } finally {
      admission.end();
    }
    send(res, status, result);
  };
}
