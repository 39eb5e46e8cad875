import argon2 from 'argon2';
import { AppError } from '../errors.ts';
import { displayPrefix, generateApiKey, hashApiKey } from './keys.ts';
import type { AccountRepository } from './accountRepository.ts';

export interface SignupInput {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  organisation?: string;
  phone?: string;
  plan: string;
}

/** Signup: the account, a trial of the chosen plan and a first API key, in one transaction. */
export class AccountService {
  constructor(private readonly repo: AccountRepository, private readonly trialDays: number) {}

  static hashPassword(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async signup(input: SignupInput): Promise<{ accountId: string; apiKey: string; email: string; name: string }> {
    const email = input.email.trim().toLowerCase();
    const passwordHash = await AccountService.hashPassword(input.password);
    const apiKey = generateApiKey();
    const accountId = await this.repo.transaction(async (trx) => {
      const planId = await this.repo.planId(input.plan, trx);
      if (planId === undefined) throw new AppError('validation_error', `unknown plan: ${input.plan}`, [{ in: 'body', parameter: 'plan', message: 'unknown plan' }]);
      const id = await this.repo.insertAccount(trx, {
        email, passwordHash, firstName: input.first_name.trim(), lastName: input.last_name.trim(),
        organisation: input.organisation ?? null, phone: input.phone ?? null,
      });
      // Says only that this email cannot sign up again: nothing about the existing account.
      if (!id) throw new AppError('email_taken', 'an account with this email already exists; log in instead');
      await this.repo.startSubscription(trx, id, planId, 'trial', this.trialDays);
      await this.repo.insertKey(trx, id, 'default', hashApiKey(apiKey), displayPrefix(apiKey));
      return id;
    });
    return { accountId, apiKey, email, name: `${input.first_name.trim()} ${input.last_name.trim()}` };
  }
}
