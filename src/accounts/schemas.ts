import { enumParam } from '../schema/params.ts';
import { z } from '../schema/zod.ts';

// Request and response bodies of the account endpoints under /user/v1/. Every message names its field,
// so a 400's `details` tell the client exactly what to fix.

const SIGNUP_PLANS = ['basic', 'pro', 'business'] as const;

const typeError = (name: string, what: string) => (iss: { input?: unknown }) =>
  iss.input === undefined ? `${name} is required` : `${name} must be ${what}`;

/** Trimmed text stored in PostgreSQL, which cannot hold NUL. */
const text = (name: string, max: number, min = 1) =>
  z
    .string({ error: typeError(name, 'a string') })
    .trim()
    .min(min, `${name} must not be empty`)
    .max(max, `${name} must be at most ${max} characters`)
    .refine((s) => !s.includes('\0'), { error: `${name} must not contain NUL characters` });

const email = z
  .string({ error: typeError('email', 'a string') })
  .trim()
  .toLowerCase()
  .max(254, 'email must be at most 254 characters')
  .email({ error: 'email must be a valid email address' })
  .openapi({ description: 'Compared and stored in lower case', example: 'asha@example.in' });

const password = (min: number) =>
  z
    .string({ error: typeError('password', 'a string') })
    .min(min, min > 1 ? `password must be at least ${min} characters` : 'password must not be empty')
    .max(200, 'password must be at most 200 characters');

export const SignupRequest = z
  .object({
    first_name: text('first_name', 100).openapi({ example: 'Asha' }),
    last_name: text('last_name', 100).openapi({ example: 'Rao' }),
    email,
    password: password(8).openapi({ description: 'At least 8 characters (at most 200); stored as an argon2id hash' }),
    organisation: text('organisation', 200).optional().openapi({ example: 'Rao & Associates' }),
    phone: z
      .string({ error: typeError('phone', 'a string') })
      .trim()
      .regex(/^\+?[0-9][0-9 ()-]{4,30}$/, 'phone must be a phone number: digits, spaces, ( ) - and an optional leading +')
      .optional()
      .openapi({ example: '+91 98765 43210' }),
    plan: enumParam(SIGNUP_PLANS, `plan must be one of ${SIGNUP_PLANS.join(', ')}`)
      .default('basic')
      .openapi({ description: 'The plan the 14-day trial is of (default basic)' }),
  })
  .openapi('SignupRequest');

export const SignupResponse = z
  .object({
    token: z.string().openapi({ description: 'Dashboard bearer token (JWT), as POST /user/v1/login/ gives' }),
    api_key: z.string().openapi({
      description: 'The first API key, `nsh_` + 32 letters and digits. Shown only this once.',
      example: 'nsh_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
    }),
    email: z.string(),
    name: z.string().openapi({ description: 'first_name and last_name', example: 'Asha Rao' }),
    plan: z.enum(SIGNUP_PLANS).openapi({ description: 'The plan the trial is of' }),
    subscription_status: z.literal('trial'),
    trial_ends_at: z
      .string()
      .nullable()
      .openapi({ format: 'date-time', description: "When the trial ends (ISO 8601 UTC); the plan's paid use starts there" }),
  })
  .openapi('SignupResponse');

export const LoginRequest = z.object({ email: text('email', 254).toLowerCase(), password: password(1) }).openapi('LoginRequest');

export const AccountSummary = z
  .object({ id: z.string().openapi({ format: 'uuid' }), email: z.string(), name: z.string() })
  .openapi('AccountSummary');

export const LoginResponse = z
  .object({
    token: z.string().openapi({ description: 'HS256 JWT: `{sub: <account id>, typ: "dashboard", iat, exp}`' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ description: 'Seconds until the token expires', example: 43200 }),
    account: AccountSummary,
  })
  .openapi('LoginResponse');

export const ApiKey = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    display_prefix: z.string().openapi({ description: 'The first 8 characters of the key, to tell keys apart', example: 'nsh_AbCd' }),
    created_at: z.string().openapi({ format: 'date-time' }),
    last_used_at: z.string().nullable().openapi({ format: 'date-time', description: 'Updated at most once a minute' }),
    revoked_at: z.string().nullable().openapi({ format: 'date-time' }),
    active: z.boolean().openapi({ description: 'False once revoked' }),
  })
  .openapi('ApiKey');

export const ApiKeyList = z.object({ count: z.number().int(), keys: z.array(ApiKey) }).openapi('ApiKeyList');

export const CreateKeyRequest = z
  .object({ name: text('name', 100).optional().openapi({ description: 'A label for the key (default "default")', example: 'ci-server' }) })
  .openapi('CreateKeyRequest');

export const CreatedKey = z
  .object({
    key: ApiKey,
    api_key: z.string().openapi({
      description: 'The new key. Shown only this once: only its hash is kept.',
      example: 'nsh_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
    }),
  })
  .openapi('CreatedKey');

export const RotatedKey = CreatedKey.extend({ revoked: ApiKey.openapi({ description: 'The key this one replaces, now revoked' }) }).openapi(
  'RotatedKey',
);

export const KeyParams = z.object({
  key_id: z
    .guid({ error: 'key_id must be a UUID' })
    .openapi({ description: "The key's `id`", example: '5b0f8d30-4b6c-4f6e-9b6c-2b2f0f0e0f0e' }),
});

const Meter = z.object({ used: z.number().int(), limit: z.number().int(), remaining: z.number().int() }).openapi('UsageMeter');

export const Usage = z
  .object({
    month: z.string().openapi({ description: 'Calendar month in UTC', example: '2026-11' }),
    plan: z.object({ code: z.string(), name: z.string() }),
    subscription: z.object({
      status: z.enum(['trial', 'active', 'inactive']),
      expires_at: z.string().nullable().openapi({ format: 'date-time' }),
      active: z.boolean().openapi({ description: 'Whether API keys work now (status trial or active and not past expires_at)' }),
    }),
    resets_at: z.string().openapi({ format: 'date-time', description: 'Start of next month (UTC), when the counters reset' }),
    usage: z.object({
      api_calls: Meter,
      doc_views: Meter,
      logo_searches: Meter,
      pdf_reports: Meter,
      excel_reports: Meter,
      clearances: Meter.openapi({ description: 'One per class screened by a clearance, single or in a batch (docs/plans.md)' }),
    }),
  })
  .openapi('Usage');
