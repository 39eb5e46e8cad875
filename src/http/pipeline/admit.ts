import type { Request, Response } from 'express';
import type { Caller } from '../../accounts/callerRepository.ts';
import type { Admitted, Guard } from '../guard.ts';
import type { Bill } from './bill.ts';

/**
 * A request's admission: for keyed requests the IP and key windows, a concurrency slot and, when the
 * endpoint has the usual cost, its one api_calls credit taken in the same round trip (put on the bill).
 * A cheap read may start early (see Guard.startEarly): its admission is then still pending while the
 * request goes on, and settle() is where it is learnt, refusal or credit. end() must follow, always.
 */
export class Admission {
  /** Started before its admission was known: its handler may run while the admission is pending. */
  readonly early: boolean;
  private pending: Promise<Admitted> | undefined;

  constructor(
    private readonly guard: Guard,
    /** The caller as identified; undefined on public endpoints. */
    readonly caller: Caller | undefined,
    private known: Admitted | undefined,
    pending?: Promise<Admitted>,
  ) {
    this.early = pending !== undefined;
    this.pending = pending;
    pending?.catch(() => undefined); // awaited by settle(); never an unhandled rejection
  }

  /** The admission as far as it is known: none on public endpoints, nor while an early start's is pending. */
  get admitted(): Admitted | undefined {
    return this.known;
  }

  /** The admission once known; a refusal is thrown here, each time it is asked. An early start's credit goes on the bill here. */
  async settle(bill: Bill): Promise<Admitted | undefined> {
    if (this.pending) {
      this.known = await this.pending;
      this.pending = undefined;
      bill.add(this.known.credit);
    }
    return this.known;
  }

  end(): void {
    if (this.early) this.guard.endEarly(this.caller!);
  }
}

export interface AdmitOptions {
  /** The endpoint's cost is the usual one api_calls credit: taken in the admission's round trip. */
  defaultCredit: boolean;
  /** A read-only endpoint with the usual cost, which may start before its admission is known. */
  mayStartEarly: boolean;
}

/** Admits a keyed request (or starts it early); a bearer request is admitted as its caller, a public one as nobody. */
export async function admit(
  guard: Guard,
  req: Request,
  res: Response,
  caller: Caller | undefined,
  keyed: boolean,
  o: AdmitOptions,
  bill: Bill,
): Promise<Admission> {
  if (!keyed) return new Admission(guard, caller, caller && { caller });
  const admission = guard.admit(req, res, caller!, o.defaultCredit);
  if (o.mayStartEarly && guard.startEarly(caller!)) return new Admission(guard, caller, undefined, admission);
  const admitted = await admission;
  bill.add(admitted.credit);
  return new Admission(guard, caller, admitted);
}
