import { useEffect, useState } from 'preact/hooks';
import { dash, errorText, type Schemas } from './client.ts';
import { ErrorLine, NewSecret } from './parts.tsx';
import { useDashStrings } from './strings.ts';

/** API keys: list, create (shown once), rotate (the new one shown once), revoke. */
export function Keys() {
  const s = useDashStrings();
  const [keys, setKeys] = useState<Schemas['ApiKey'][] | null>(null);
  const [fresh, setFresh] = useState<{ key: string; id: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');

  const load = () =>
    dash.GET('/user/v1/keys/').then(({ data, error }) => (data ? setKeys(data.keys) : setError(errorText(error, s.failed))));
  useEffect(() => {
    load();
  }, []);

  async function create(e: Event) {
    e.preventDefault();
    const { data, error } = await dash.POST('/user/v1/keys/', { body: name.trim() ? { name: name.trim() } : {} });
    setError(data ? null : errorText(error, s.failed));
    if (data) {
      setFresh({ key: data.api_key, id: data.key.id });
      setName('');
      load();
    }
  }
  async function rotate(id: string) {
    const { data, error } = await dash.POST('/user/v1/keys/{key_id}/rotate/', { params: { path: { key_id: id } } });
    setError(data ? null : errorText(error, s.failed));
    if (data) setFresh({ key: data.api_key, id: data.key.id });
    load();
  }
  async function revoke(id: string) {
    const { error } = await dash.DELETE('/user/v1/keys/{key_id}/', { params: { path: { key_id: id } } });
    setError(error ? errorText(error, s.failed) : null);
    load();
  }

  return (
    <>
      {fresh && <NewSecret label={s.newKey} value={fresh.key} />}
      <form onSubmit={create} class="dash-row">
        <label>
          {s.keyName}
          <input value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary">
          {s.createKey}
        </button>
      </form>
      <ErrorLine error={error} />
      {keys && (
        <table class="dash-table">
          <caption class="visually-hidden">{s.keys}</caption>
          <thead>
            <tr>
              <th scope="col">{s.name}</th>
              <th scope="col">{s.prefix}</th>
              <th scope="col">{s.created}</th>
              <th scope="col">{s.lastUsed}</th>
              <th scope="col">{s.status}</th>
              <th scope="col">{s.actions}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} data-key-id={k.id}>
                <th scope="row">{k.name}</th>
                <td class="dash-mono">{k.display_prefix}…</td>
                <td>{k.created_at.slice(0, 10)}</td>
                <td>{k.last_used_at?.slice(0, 16).replace('T', ' ') ?? s.never}</td>
                <td>{k.active ? s.active : `${s.revoked} ${k.revoked_at?.slice(0, 10) ?? ''}`}</td>
                <td>
                  {k.active && (
                    <>
                      <button type="button" onClick={() => rotate(k.id)} aria-label={`${s.rotate} ${k.name} ${k.display_prefix}`}>
                        {s.rotate}
                      </button>{' '}
                      <button type="button" onClick={() => revoke(k.id)} aria-label={`${s.revoke} ${k.name} ${k.display_prefix}`}>
                        {s.revoke}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
