// Admin CLI: plans, subscriptions and add-ons (`npm run admin -- <command>`; docs/plans.md).
// Exit status: 0 done, 2 refused (unknown plan, email, category or a bad argument; nothing changed),
// 1 an unexpected failure.

import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CATEGORIES, type Category } from '../src/accounts/access.ts';
import type { AdminRepository, PlanRow } from '../src/accounts/adminRepository.ts';
import { RESOURCES, type Resource } from '../src/accounts/callerRepository.ts';
import { loadConfig } from '../src/config.ts';
import { createRoot, type Root } from '../src/root.ts';

export const USAGE = `usage: npm run admin -- <command>

  plans list
  plans create <code> --name <name> --quota api_calls=N[,doc_views=N,logo_searches=N,pdf_reports=N,excel_reports=N,clearances=N]
               [--categories cat_a,cat_b] [--concurrency 1-10] [--bulk-search 0-100] [--bulk-logo 0-100]
               [--webhooks yes|no] [--monitored N|unlimited]
  assign <email> <plan> [--days N]       put the account on the plan, active (no --days: no expiry)
  activate <email> [--days N]            activate the current plan (no --days: no expiry)
  expire <email>                         end the subscription now
  addon grant <email> <cat_…> [--days N] add a category to one account (no --days: no expiry)
  addon revoke <email> <cat_…>
  show <email>
`;

/** A refusal the operator can fix: printed without a stack, exit status 2. */
export class AdminError extends Error {}

type Out = (line: string) => void;

interface Flags {
  name?: string;
  categories?: string;
  quota?: string;
  concurrency?: string;
  'bulk-search'?: string;
  'bulk-logo'?: string;
  webhooks?: string;
  monitored?: string;
  days?: string;
}

const FLAG_NAMES = ['name', 'categories', 'quota', 'concurrency', 'bulk-search', 'bulk-logo', 'webhooks', 'monitored', 'days'] as const;

function parse(argv: string[]): { positionals: string[]; flags: Flags } {
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(FLAG_NAMES.map((n) => [n, { type: 'string' as const }])),
    });
    return { positionals, flags: values as Flags };
  } catch (err) {
    throw new AdminError(err instanceof Error ? err.message : String(err));
  }
}

function integer(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new AdminError(`--${flag} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

const days = (flags: Flags): number | null => (flags.days === undefined ? null : integer('days', flags.days, 1, 36_500));

function onlyFlags(flags: Flags, allowed: readonly (keyof Flags)[], command: string): void {
  const extra = Object.keys(flags).filter((k) => !allowed.includes(k as keyof Flags));
  if (extra.length) throw new AdminError(`${command} does not take ${extra.map((f) => `--${f}`).join(', ')}`);
}

function arity(positionals: string[], n: number, command: string): void {
  if (positionals.length !== n)
    throw new AdminError(`${command}: expected ${n - 1} argument(s), got ${positionals.length - 1}\n\n${USAGE}`);
}

function category(value: string): Category {
  if (!(CATEGORIES as readonly string[]).includes(value)) {
    throw new AdminError(`unknown category "${value}"; known: ${CATEGORIES.join(', ')}`);
  }
  return value as Category;
}

function quotas(value: string | undefined): Record<Resource, number> {
  if (value === undefined) throw new AdminError('plans create needs --quota api_calls=N[,doc_views=N,...]');
  const out = Object.fromEntries(RESOURCES.map((r) => [r, 0])) as Record<Resource, number>;
  for (const part of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [k, v, ...rest] = part.split('=');
    if (rest.length || v === undefined) throw new AdminError(`--quota: "${part}" is not resource=N`);
    if (!(RESOURCES as readonly string[]).includes(k))
      throw new AdminError(`--quota: unknown resource "${k}"; known: ${RESOURCES.join(', ')}`);
    out[k as Resource] = integer(`quota ${k}`, v, 0, 1_000_000_000);
  }
  return out;
}

function describePlan(p: PlanRow): string {
  const q = RESOURCES.map((r) => `${r}=${p.quotas[r] ?? 0}`).join(' ');
  return [
    `${p.code}${p.custom ? ' (custom)' : ''}: ${p.name} — ${p.accounts} account(s)`,
    `  categories: ${p.categories.length ? p.categories.join(', ') : '(none)'}`,
    `  monthly quotas: ${q}`,
    `  concurrency ${p.concurrency}, bulk search ${p.bulk_search_limit}, bulk logo ${p.bulk_logo_limit}, ` +
      `webhooks ${p.webhook_enabled ? 'yes' : 'no'}, monitored marks ${p.monitored_marks_limit ?? 'unlimited'}`,
  ].join('\n');
}

const until = (d: number | null) => (d === null ? 'with no expiry' : `for ${d} day(s)`);

async function accountOf(repo: AdminRepository, email: string): Promise<string> {
  const id = await repo.accountId(email);
  if (!id) throw new AdminError(`no account with email "${email}"`);
  return id;
}

async function planOf(repo: AdminRepository, code: string): Promise<PlanRow> {
  const plan = await repo.plan(code);
  if (!plan) throw new AdminError(`unknown plan "${code}"; \`plans list\` shows them`);
  return plan;
}

/**
 * Runs one command against the database, with the root's admin repository and its ledger (`show` reports
 * this month's use as the usage endpoint counts it); throws AdminError for anything the operator got wrong.
 */
export async function runAdmin(argv: string[], root: Pick<Root, 'repos' | 'services'>, out: Out): Promise<void> {
  const { positionals: p, flags } = parse(argv);
  const repo = root.repos.admin;
  const command = p.slice(0, p[0] === 'plans' || p[0] === 'addon' ? 2 : 1).join(' ');
  switch (command) {
    case 'plans list': {
      arity(p, 2, command);
      onlyFlags(flags, [], command);
      for (const plan of await repo.listPlans()) out(describePlan(plan));
      return;
    }
    case 'plans create': {
      arity(p, 3, command);
      onlyFlags(flags, ['name', 'categories', 'quota', 'concurrency', 'bulk-search', 'bulk-logo', 'webhooks', 'monitored'], command);
      const code = p[2];
      if (!/^[a-z0-9_-]{2,40}$/.test(code)) throw new AdminError(`plan code "${code}" must be 2-40 of a-z, 0-9, _ and -`);
      const name = flags.name?.trim();
      if (!name) throw new AdminError('plans create needs --name');
      const categories = [
        ...new Set(
          (flags.categories ?? '')
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
            .map(category),
        ),
      ];
      const webhooks = flags.webhooks ?? 'no';
      if (webhooks !== 'yes' && webhooks !== 'no') throw new AdminError(`--webhooks must be yes or no, got "${webhooks}"`);
      const monitored = flags.monitored ?? '0';
      const id = await repo.createPlan({
        code,
        name,
        categories,
        quotas: quotas(flags.quota),
        concurrency: integer('concurrency', flags.concurrency ?? '1', 1, 10),
        bulkSearchLimit: integer('bulk-search', flags['bulk-search'] ?? '0', 0, 100),
        bulkLogoLimit: integer('bulk-logo', flags['bulk-logo'] ?? '0', 0, 100),
        webhookEnabled: webhooks === 'yes',
        monitoredMarksLimit: monitored === 'unlimited' ? null : integer('monitored', monitored, 0, 1_000_000),
      });
      if (id === null) throw new AdminError(`a plan with code "${code}" already exists`);
      out(describePlan(await planOf(repo, code)));
      return;
    }
    case 'assign': {
      arity(p, 3, command);
      onlyFlags(flags, ['days'], command);
      const [accountId, plan] = [await accountOf(repo, p[1]), await planOf(repo, p[2])];
      const d = days(flags);
      await repo.assign(accountId, plan.id, d);
      out(`${p[1]}: active on ${plan.code} ${until(d)}`);
      return;
    }
    case 'activate': {
      arity(p, 2, command);
      onlyFlags(flags, ['days'], command);
      const accountId = await accountOf(repo, p[1]);
      const d = days(flags);
      if (!(await repo.activate(accountId, d))) throw new AdminError(`${p[1]} has no subscription: use assign <email> <plan>`);
      out(`${p[1]}: active ${until(d)}`);
      return;
    }
    case 'expire': {
      arity(p, 2, command);
      onlyFlags(flags, [], command);
      const accountId = await accountOf(repo, p[1]);
      if (!(await repo.expire(accountId))) throw new AdminError(`${p[1]} has no subscription`);
      out(`${p[1]}: subscription ended; its API keys now get 403 subscription_inactive`);
      return;
    }
    case 'addon grant':
    case 'addon revoke': {
      arity(p, 4, command);
      onlyFlags(flags, command === 'addon grant' ? ['days'] : [], command);
      const cat = category(p[3]);
      const accountId = await accountOf(repo, p[2]);
      if (command === 'addon grant') {
        const d = days(flags);
        await repo.grantAddon(accountId, cat, d);
        out(`${p[2]}: ${cat} granted ${until(d)}`);
      } else {
        if (!(await repo.revokeAddon(accountId, cat))) throw new AdminError(`${p[2]} has no add-on ${cat}`);
        out(`${p[2]}: ${cat} revoked`);
      }
      return;
    }
    case 'show': {
      arity(p, 2, command);
      onlyFlags(flags, [], command);
      const a = await repo.overview(await accountOf(repo, p[1]));
      const { used } = await root.services.ledger.usage(a.id);
      out(`${a.email} (${a.name}${a.organisation ? `, ${a.organisation}` : ''}) id ${a.id}, since ${a.created_at}`);
      out(
        `  plan ${a.plan_code ?? '(none)'}, status ${a.status ?? '(none)'}, ` +
          `expires ${a.expires_at ?? 'never'}, ${a.active ? 'ACTIVE' : 'NOT ACTIVE'}`,
      );
      const addons = a.addons.map((x) => `${x.category}${x.active ? '' : ' (expired)'}${x.expires_at ? ` until ${x.expires_at}` : ''}`);
      out(`  add-ons: ${addons.length ? addons.join(', ') : '(none)'}`);
      const keys = a.keys.map((k) => `${k.display_prefix}… "${k.name}"${k.active ? '' : ' (revoked)'}`);
      out(`  keys: ${keys.length ? keys.join(', ') : '(none)'}`);
      out(`  usage this month: ${RESOURCES.map((r) => `${r}=${used[r] ?? 0}`).join(' ')}`);
      return;
    }
    default:
      throw new AdminError(p.length ? `unknown command "${p.join(' ')}"\n\n${USAGE}` : USAGE);
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  // Silent: what the ledger would log (Redis away, say) is not the operator's output.
  const root = createRoot({ ...loadConfig(), LOG_LEVEL: 'silent' }, { dbPoolMax: 2 });
  try {
    await runAdmin(argv, root, (line) => process.stdout.write(`${line}\n`));
    return 0;
  } catch (err) {
    if (err instanceof AdminError) {
      process.stderr.write(`${err.message.trimEnd()}\n`);
      return 2;
    }
    process.stderr.write(`admin failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  } finally {
    await root.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`admin failed: ${String(err)}\n`);
      process.exit(1);
    },
  );
}
