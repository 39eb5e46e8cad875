import { useEffect, useState } from 'preact/hooks';
import { dash, errorText, type Schemas } from './client.ts';
import { ErrorLine, NewSecret, Pager } from './parts.tsx';
import { useDashStrings } from './strings.ts';

type Webhook = Schemas['Webhook'];

type EventName = Exclude<Schemas['WebhookEventName'], '*'>;

// Keyed by the API's event names as its OpenAPI document lists them (WebhookEventName; `*` has its own
// checkbox): an event added to the API, or dropped, fails `tsc -p web` until this list says the same.
const EVENT_NAMES: Record<EventName, null> = {
  'trademark.status_changed': null,
  'trademark.alert_changed': null,
  'trademark.expiry_changed': null,
  'trademark.journal_published': null,
  'trademark.opposition_filed': null,
  'trademark.opposition_updated': null,
  'trademark.opposition_document_added': null,
  'trademark.hearing_scheduled': null,
  'trademark.hearing_updated': null,
  'trademark.exam_report_added': null,
  'trademark.document_added': null,
  'trademark.proprietor_changed': null,
  'trademark.attorney_changed': null,
  'trademark.cited_mark_added': null,
  'trademark.renewal_due': null,
  'trademark.similar_filed': null,
  'watch.deadline_approaching': null,
  'clearance.completed': null,
};
const EVENTS = Object.keys(EVENT_NAMES) as EventName[];

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** A fresh signing secret as the server makes them: whsec_ and 32 random bytes in base64. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** The fields of a webhook (new or edited): URL, events (or all), monitored application numbers. */
function WebhookFields({ prefix, initial }: { prefix: string; initial?: Webhook }) {
  const s = useDashStrings();
  const all = !initial || initial.events.includes('*');
  return (
    <>
      <label>
        {s.url}
        <input name="url" type="url" required defaultValue={initial?.url} placeholder="https://" />
      </label>
      <label>
        {s.monitored}
        <input name="apps" required defaultValue={initial?.monitored_applications.join(', ')} />
      </label>
      <fieldset>
        <legend>{s.events}</legend>
        <label class="dash-check">
          <input type="checkbox" name="events" value="*" defaultChecked={all} /> {s.allEvents}
        </label>
        <details>
          <summary>{s.events}</summary>
          {EVENTS.map((ev) => (
            <label class="dash-check" key={ev}>
              <input
                type="checkbox"
                name="events"
                value={ev}
                id={`${prefix}-${ev}`}
                defaultChecked={!all && initial?.events.includes(ev)}
              />{' '}
              <span class="dash-mono">{ev}</span>
            </label>
          ))}
        </details>
      </fieldset>
    </>
  );
}

function readFields(form: HTMLFormElement) {
  const f = new FormData(form);
  // The checkboxes' values: EVENTS and `*`.
  const events = f.getAll('events').map(String) as Schemas['WebhookEventName'][];
  return {
    url: String(f.get('url') ?? '').trim(),
    monitored_applications: list(String(f.get('apps') ?? '')),
    events: events.includes('*') || events.length === 0 ? ['*' as const] : events,
  };
}

/** Delivery log entries a page. */
const LOG_PAGE = 20;

/** The delivery log; `version` changes when the page knows of a new entry (a test ping just logged). */
function Deliveries({ id, version }: { id: string; version: number }) {
  const s = useDashStrings();
  const [rows, setRows] = useState<Schemas['WebhookDelivery'][] | null>(null);
  const [page, setPage] = useState({ offset: 0, count: 0 });
  const [error, setError] = useState<string | null>(null);
  const load = (offset = page.offset) =>
    dash
      .GET('/user/v1/webhooks/{webhook_id}/deliveries/', { params: { path: { webhook_id: id }, query: { limit: LOG_PAGE, offset } } })
      .then(({ data, error }) => {
        if (!data) return setError(errorText(error, s.failed));
        setRows(data.deliveries);
        setPage({ offset: data.offset, count: data.count });
      });
  useEffect(() => {
    load(0);
  }, [id, version]);
  async function replay(deliveryId: string) {
    const { error } = await dash.POST('/user/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/replay/', {
      params: { path: { webhook_id: id, delivery_id: deliveryId } },
    });
    setError(error ? errorText(error, s.failed) : null);
    load();
  }
  return (
    <section aria-label={s.deliveries}>
      <h3>{s.deliveries}</h3>
      <ErrorLine error={error} />
      {rows && rows.length === 0 && <p>{s.noDeliveries}</p>}
      {rows && rows.length > 0 && (
        <table class="dash-table">
          <caption class="visually-hidden">{s.deliveries}</caption>
          <thead>
            <tr>
              <th scope="col">{s.created}</th>
              <th scope="col">{s.event}</th>
              <th scope="col">{s.number}</th>
              <th scope="col">{s.status}</th>
              <th scope="col">{s.attempts}</th>
              <th scope="col">{s.lastCode}</th>
              <th scope="col">{s.actions}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id}>
                <td>{d.created_at.slice(0, 16).replace('T', ' ')}</td>
                <td class="dash-mono">{d.event}</td>
                <td>{d.application_number ?? '—'}</td>
                <td>{d.status}</td>
                <td>{d.attempts}</td>
                <td>{d.last_status_code ?? d.last_error ?? '—'}</td>
                <td>
                  {/* A test ping is not a change to send again (409 not_replayable): the ping button sends a new one. */}
                  {d.status !== 'pending' && d.event !== 'webhook.ping' && (
                    <button type="button" onClick={() => replay(d.id)}>
                      {s.replay}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows && <Pager offset={page.offset} shown={rows.length} count={page.count} page={LOG_PAGE} onTurn={(o) => load(o)} />}
    </section>
  );
}

function WebhookItem({ hook, reload }: { hook: Webhook; reload: () => void }) {
  const s = useDashStrings();
  const [editing, setEditing] = useState(false);
  const [ping, setPing] = useState<string | null>(null);
  const [pings, setPings] = useState(0);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const path = { params: { path: { webhook_id: hook.id } } };

  async function save(e: Event) {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const active = (form.elements.namedItem('active') as HTMLInputElement).checked;
    const { error } = await dash.PUT('/user/v1/webhooks/{webhook_id}/', { ...path, body: { ...readFields(form), active } });
    setError(error ? errorText(error, s.failed) : null);
    if (!error) {
      setEditing(false);
      reload();
    }
  }
  async function test() {
    const { data, error } = await dash.POST('/user/v1/webhooks/{webhook_id}/test/', path);
    if (!data) return setPing(s.pingFail(errorText(error, s.failed)));
    setPing(data.delivered ? s.pingOk(String(data.status_code), data.latency_ms) : s.pingFail(data.error ?? String(data.status_code)));
    setPings((n) => n + 1);
  }
  async function rotateSecret() {
    const next = newSecret();
    const { error } = await dash.PUT('/user/v1/webhooks/{webhook_id}/', { ...path, body: { secret: next } });
    setError(error ? errorText(error, s.failed) : null);
    if (!error) setSecret(next);
  }
  async function remove() {
    const { error } = await dash.DELETE('/user/v1/webhooks/{webhook_id}/', path);
    setError(error ? errorText(error, s.failed) : null);
    reload();
  }

  return (
    <li class="dash-panel" aria-label={hook.url}>
      <p>
        <strong class="dash-mono">{hook.url}</strong> — {hook.status} · {hook.events.join(', ')} · {hook.monitored_applications.join(', ')}
      </p>
      <div class="dash-row">
        <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          {s.edit}
        </button>
        <button type="button" onClick={test}>
          {s.testPing}
        </button>
        <button type="button" onClick={rotateSecret}>
          {s.rotateSecret}
        </button>
        <button type="button" onClick={remove}>
          {s.delete}
        </button>
      </div>
      {ping && (
        <p role="status" class="dash-ping">
          {ping}
        </p>
      )}
      {secret && <NewSecret label={s.secretOnce} value={secret} />}
      <ErrorLine error={error} />
      {editing && (
        <form onSubmit={save} class="dash-form">
          <WebhookFields prefix={`edit-${hook.id}`} initial={hook} />
          <label class="dash-check">
            <input type="checkbox" name="active" defaultChecked={hook.active} /> {s.active}
          </label>
          <div class="dash-row">
            <button type="submit" class="primary">
              {s.save}
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              {s.cancel}
            </button>
          </div>
        </form>
      )}
      <Deliveries id={hook.id} version={pings} />
    </li>
  );
}

/** Webhooks: register (the secret shown once), edit, test ping, delivery log with replay, secret rotation, delete. */
export function Webhooks() {
  const s = useDashStrings();
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    dash.GET('/user/v1/webhooks/list/').then(({ data, error }) => (data ? setHooks(data.webhooks) : setError(errorText(error, s.failed))));
  useEffect(() => {
    load();
  }, []);

  async function create(e: Event) {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const secret = String(new FormData(form).get('secret') ?? '').trim();
    const { data, error } = await dash.POST('/user/v1/webhooks/', { body: { ...readFields(form), ...(secret ? { secret } : {}) } });
    setError(data ? null : errorText(error, s.failed));
    if (data) {
      setCreated(data.secret);
      form.reset();
      load();
    }
  }

  return (
    <>
      <form onSubmit={create} class="dash-form dash-panel" aria-labelledby="new-webhook">
        <h2 id="new-webhook">{s.createWebhook}</h2>
        <WebhookFields prefix="new" />
        <label>
          {s.secretOpt}
          <input name="secret" type="password" autoComplete="off" />
        </label>
        <button type="submit" class="primary">
          {s.createWebhook}
        </button>
      </form>
      {created && <NewSecret label={s.secretOnce} value={created} />}
      <ErrorLine error={error} />
      {hooks && hooks.length === 0 && <p>{s.none}</p>}
      <ul class="dash-list">
        {hooks?.map((h) => (
          <WebhookItem key={h.id} hook={h} reload={load} />
        ))}
      </ul>
    </>
  );
}
