import type { Resource } from '../../accounts/callerRepository.ts';
import type { Charge, CreditLedger } from '../../limits/credits.ts';

/**
 * What one request has been charged, charge by charge, and what of it is still held: every step that
 * takes credits puts them on the bill, and a request that fails gives back whatever is left on it
 * (errors cost nothing). Each credit goes back once, to where and the month it was taken from.
 */
export class Bill {
  private readonly lines: { charge: Charge; left: number }[] = [];

  constructor(private readonly ledger: Pick<CreditLedger, 'refund'>) {}

  /** Puts credits taken for this request on the bill; nothing taken (undefined, null) or a charge already on it adds nothing. */
  add(charge: Charge | null | undefined): void {
    if (!charge || this.lines.some((l) => l.charge === charge)) return;
    this.lines.push({ charge, left: charge.units });
  }

  /** Credits of `resource` charged and not given back. */
  held(resource: Resource): number {
    return this.lines.reduce((n, l) => (l.charge.resource === resource ? n + l.left : n), 0);
  }

  /** Gives back up to `units` of what was charged in `resource`, oldest charge first (bulk items that failed cost nothing). */
  async givePart(resource: Resource, units: number): Promise<void> {
    for (const line of this.lines) {
      if (units <= 0) return;
      if (line.charge.resource !== resource) continue;
      const n = this.take(line, units);
      units -= n;
      if (n > 0) await this.ledger.refund({ ...line.charge, units: n });
    }
  }

  /** Gives back everything still held, the latest charge first. */
  async refundAll(): Promise<void> {
    for (let i = this.lines.length - 1; i >= 0; i--) {
      const line = this.lines[i];
      const n = this.take(line, line.left);
      if (n > 0) await this.ledger.refund({ ...line.charge, units: n });
    }
  }

  // Taken off the bill before the refund is awaited: a refund running alongside cannot give the same credits back again.
  private take(line: { left: number }, units: number): number {
    const n = Math.min(units, line.left);
    line.left -= n;
    return n;
  }
}
