// The dashboard's entry (issue 23B owns web/src/dashboard/): loaded on demand under /app/, so the public
// page's first render does not carry it. `path` is the part after /app/.
export default function Dashboard({ path }: { path: string }) {
  return (
    <section>
      <h1>Dashboard</h1>
      <p>Coming soon{path ? ` (${path})` : ''}.</p>
    </section>
  );
}
