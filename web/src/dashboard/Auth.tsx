import { useState } from 'preact/hooks';
import { dash, errorText, type Schemas } from './client.ts';
import { useDashStrings } from './strings.ts';

export type SessionInfo = Schemas['Session'];

/** Log in or sign up; either way the browser gets the session cookie and the page only the CSRF token. */
export function Auth({ onIn }: { onIn: (s: SessionInfo, firstKey?: string) => void }) {
  const s = useDashStrings();
  const [mode, setMode] = useState<'login' | 'signup'>('login');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const v = (k: string) => String(f.get(k) ?? '');
    setBusy(true);
    setError(null);
    if (mode === 'login') {
      const { data, error } = await dash.POST('/user/v1/session/', { body: { email: v('email'), password: v('password') } });
      setBusy(false);
      if (data) onIn(data);
      else setError(errorText(error, s.failed));
      return;
    }
    const plan = v('plan') as 'basic' | 'pro' | 'business';
    const { data, error } = await dash.POST('/user/v1/session/signup/', {
      body: { first_name: v('first_name'), last_name: v('last_name'), email: v('email'), password: v('password'), plan },
    });
    setBusy(false);
    if (data) onIn({ account: data.account, csrf_token: data.csrf_token, expires_in: data.expires_in }, data.api_key);
    else setError(errorText(error, s.failed));
  }

  return (
    <section class="dash-auth" aria-labelledby="auth-title">
      <h1 id="auth-title">{mode === 'login' ? s.login : s.signup}</h1>
      <form onSubmit={submit} class="dash-form">
        {mode === 'signup' && (
          <>
            <label>
              {s.firstName}
              <input name="first_name" required autoComplete="given-name" />
            </label>
            <label>
              {s.lastName}
              <input name="last_name" required autoComplete="family-name" />
            </label>
          </>
        )}
        <label>
          {s.email}
          <input name="email" type="email" required autoComplete="email" />
        </label>
        <label>
          {s.password}
          <input
            name="password"
            type="password"
            required
            minLength={mode === 'signup' ? 8 : 1}
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
          />
        </label>
        {mode === 'signup' && (
          <label>
            {s.plan}
            <select name="plan">
              <option value="basic">Basic</option>
              <option value="pro">Pro</option>
              <option value="business">Business</option>
            </select>
          </label>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {mode === 'login' ? s.login : s.signup}
        </button>
        {error && (
          <p role="alert" class="alert">
            {error}
          </p>
        )}
      </form>
      <p>
        {mode === 'login' ? s.newHere : s.haveAccount}{' '}
        <button type="button" class="link" onClick={() => setMode(mode === 'login' ? 'signup' : 'login')}>
          {mode === 'login' ? s.signup : s.login}
        </button>
      </p>
    </section>
  );
}
