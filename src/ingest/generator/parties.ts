import { type Agent, agentFor, foreignParty, indianParty } from './people.ts';
import { Places } from './places.ts';
import type { Reference, State } from './reference.ts';
import { Rng } from './rng.ts';

// The applicant(s) of mark i, from their own stream so that another mark (an opposition by the
// earlier mark's owner) can look them up without regenerating anything else.

const S_PEOPLE = 21;
const OFFICES = ['MUM', 'DEL', 'KOL', 'CHE', 'AHD'];
const FOREIGN_SHARE = 0.05;
// Foreign applicants file through an address for service, mostly with Delhi and Mumbai agents.
const FOREIGN_OFFICES = ['DEL', 'DEL', 'DEL', 'DEL', 'MUM', 'MUM', 'MUM', 'CHE', 'CHE', 'KOL'];

export interface Proprietor {
  name: string;
  entityType: string;
  address: string;
  state: State | null;
  country: string;
  tradingAs: string | null;
}

export interface Applicants {
  owners: Proprietor[]; // one, or two for joint applicants
  office: string;
}

export class Parties {
  private readonly rng = new Rng();
  private readonly places: Places;
  private readonly agents = new Map<number, Agent>();
  private readonly agentRng = new Rng();

  constructor(
    readonly seed: number,
    ref: Reference,
  ) {
    this.places = new Places(ref);
  }

  applicants(i: number, word: string, cls: number, filed: number): Applicants {
    const rng = this.rng.reseed(this.seed, i, S_PEOPLE);
    if (rng.chance(FOREIGN_SHARE)) {
      const f = foreignParty(rng, word);
      const owner: Proprietor = {
        name: f.name,
        entityType: f.entityType,
        address: f.address,
        state: null,
        country: f.country,
        tradingAs: null,
      };
      return { owners: [owner], office: rng.pick(FOREIGN_OFFICES) };
    }
    const state = this.places.state(rng, filed);
    const owners: Proprietor[] = [this.indian(rng, word, cls, state)];
    if (rng.chance(0.03)) {
      const second = this.indian(rng, '', cls, state);
      second.entityType = 'Individual';
      owners.push(second);
    }
    return { owners, office: state.office };
  }

  private indian(rng: Rng, word: string, cls: number, state: State): Proprietor {
    const p = indianParty(rng, word, cls);
    return {
      name: p.name,
      entityType: p.entityType,
      address: this.places.address(rng, state),
      state,
      country: 'India',
      tradingAs: p.tradingAs,
    };
  }

  /** A new owner after an assignment, drawn from a stream of its own. */
  assignee(i: number, word: string, cls: number, stream: number): Proprietor {
    const rng = this.rng.reseed(this.seed, i, stream);
    const state = this.places.state(rng, Number.MAX_SAFE_INTEGER);
    return this.indian(rng, word, cls, state);
  }

  /** Agents are shared across marks; cached so the per-mark cost is one draw. */
  agent(rng: Rng, office: string): Agent {
    const rank = agentFor.rank(rng);
    const key = OFFICES.indexOf(office) * 65536 + rank;
    let a = this.agents.get(key);
    if (!a) {
      a = agentFor(this.agentRng, this.seed, office, rank);
      this.agents.set(key, a);
    }
    return a;
  }
}
