import { logIn, signedUp } from '../../accounts/login.ts';
import * as P from '../../accounts/planSchemas.ts';
import * as S from '../../accounts/schemas.ts';
import { notFound } from '../../errors.ts';
import type { Services } from '../../root.ts';
import type { Api } from '../endpoint.ts';
import { clientIp } from '../guard.ts';

const tags = ['Account'];

const JWT_SHAPE =
  'The token is an HS256 JSON Web Token with the claims `sub` (the account id), `typ: "dashboard"`, `iat` and `exp` ' +
  '(`expires_in` seconds after issue). Send it as `Authorization: Bearer <token>` to the /user/v1/ endpoints. ' +
  'It is not an API key: the data endpoints take `X-API-Key`.';

export function accountRoutes(
  api: Api,
  d: Pick<Services, 'accounts' | 'usage' | 'tokens' | 'limits' | 'announced' | 'planCatalogue'>,
): void {
  api.add({
    method: 'get',
    path: '/user/v1/plans/',
    operationId: 'listPlans',
    tags,
    security: 'none',
    cost: null,
    summary: 'Every plan a signup may choose: its categories, monthly quotas (paid and during the trial), limits and features',
    description:
      'Public and free (the per-address limit applies). What it lists is what the API enforces: a request for a category or ' +
      'feature a plan lacks is 403, and that 403 names in `details.plans` the plans that include it. docs/plans.md.',
    response: P.PlanList,
    handler: () => d.planCatalogue.list(),
  });

  api.add({
    method: 'post',
    path: '/user/v1/signup/',
    operationId: 'signup',
    tags,
    security: 'none',
    cost: null,
    summary: 'Create an account: starts a 14-day trial of the chosen plan and returns a first API key',
    description:
      "Every invalid field is named in the 400's `details`. An email that is already registered (compared without " +
      'regard to case) is 409 `email_taken`. ' +
      JWT_SHAPE,
    body: S.SignupRequest,
    response: S.SignupResponse,
    status: 201,
    errors: [409],
    handler: async ({ body }) => {
      const r = await d.accounts.signup(body);
      return { token: d.tokens.issue(r.accountId).token, ...signedUp(r, body.plan) };
    },
  });

  api.add({
    method: 'post',
    path: '/user/v1/login/',
    operationId: 'login',
    tags,
    security: 'none',
    cost: null,
    summary: 'Exchange an email and password for a dashboard bearer token',
    description:
      `${JWT_SHAPE}\n\nA wrong email and a wrong password both give 401 \`invalid_credentials\` with the same message. ` +
      'Failed attempts are counted over 15 minutes per email from one address, per email from anywhere and per address: ' +
      'past 5 for the pair (20 for the email, 20 for the address) each further attempt is answered more slowly (up to 2 s); ' +
      'past 10 (100, 50) attempts are refused with 429 `login_throttled`, `Retry-After` and ' +
      '`details: {limit, remaining, reset, resource: "login", per: "pair"|"email"|"ip"}`. A successful login clears the ' +
      "pair's and the email's counts. Only a wrong password counts: a login that could not be checked (503) does not. " +
      'While Redis, which keeps the counts, is away, logging in answers 503 rather than check a password unthrottled.',
    body: S.LoginRequest,
    response: S.LoginResponse,
    errors: [401, 429],
    handler: async ({ body, req }) => {
      const account = await logIn(d.accounts, d.limits, body.email, body.password, clientIp(req));
      const { token, expiresIn } = d.tokens.issue(account.id);
      return { token, token_type: 'Bearer' as const, expires_in: expiresIn, account };
    },
  });

  api.add({
    method: 'get',
    path: '/user/v1/keys/',
    operationId: 'listApiKeys',
    tags,
    security: 'bearer',
    cost: null,
    summary: 'Your API keys, active and revoked, oldest first (never the keys themselves)',
    response: S.ApiKeyList,
    handler: async ({ caller }) => {
      const keys = await d.accounts.listKeys(caller.accountId);
      return { count: keys.length, keys };
    },
  });

  api.add({
    method: 'post',
    path: '/user/v1/keys/',
    operationId: 'createApiKey',
    tags,
    security: 'bearer',
    cost: null,
    summary: 'Create an API key (shown once)',
    description: 'Only while the subscription is active (trial or paid, not expired); otherwise 403 `subscription_inactive`.',
    body: S.CreateKeyRequest,
    response: S.CreatedKey,
    status: 201,
    errors: [403, 409],
    handler: async ({ caller, body }) => {
      const { key, apiKey } = await d.accounts.createKey(caller, body.name ?? 'default');
      return { key, api_key: apiKey };
    },
  });

  api.add({
    method: 'delete',
    path: '/user/v1/keys/:key_id/',
    operationId: 'revokeApiKey',
    tags,
    security: 'bearer',
    cost: null,
    summary: 'Revoke an API key at once',
    description:
      "Idempotent: revoking a revoked key answers 200 with the key as it is. Another account's key id is 404. " +
      "Allowed whatever the subscription's state, so a leaked key can always be switched off.",
    params: S.KeyParams,
    response: S.ApiKey,
    errors: [404],
    handler: async ({ caller, params }) => {
      const key = await d.accounts.revokeKey(caller.accountId, params.key_id);
      if (!key) throw notFound(`API key ${params.key_id}`);
      await d.announced();
      return key;
    },
  });

  api.add({
    method: 'post',
    path: '/user/v1/keys/:key_id/rotate/',
    operationId: 'rotateApiKey',
    tags,
    security: 'bearer',
    cost: null,
    summary: 'Replace an API key: a new key with the same name, the old one revoked, in one transaction',
    description:
      "Only an active key can be rotated: a revoked key (or another account's) is 404 `not_found`, since there is no " +
      'active key with that id to replace. Like creating a key, it needs an active subscription (403 `subscription_inactive`).',
    params: S.KeyParams,
    response: S.RotatedKey,
    status: 201,
    errors: [403, 404],
    handler: async ({ caller, params }) => {
      const r = await d.accounts.rotateKey(caller, params.key_id);
      if (!r) throw notFound(`active API key ${params.key_id}`);
      await d.announced();
      return { key: r.key, api_key: r.apiKey, revoked: r.revoked };
    },
  });

  api.add({
    method: 'get',
    path: '/user/v1/usage/',
    operationId: 'getUsage',
    tags,
    security: 'bearer',
    cost: null,
    summary: "This month's use per resource type against your plan's monthly limits",
    description:
      'Months are calendar months in UTC. A keyed 2xx read costs one `api_calls` unless another resource is charged ' +
      'instead (see docs/plans.md); errors cost nothing.',
    response: S.Usage,
    handler: async ({ caller }) => d.usage.report(caller.accountId),
  });
}
