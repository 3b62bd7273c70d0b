import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { OutboxList } from "./outbox-list";
import { PublishAgreementForm } from "./publish-agreement-form";

/** The admin area's first tools; the admin issue adds users, audit log and the rest. */
export function AdminDashboardPage() {
  useDocumentMeta({ title: "Admin dashboard", noindex: true });
  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:px-6 lg:grid-cols-2">
      <h1 className="text-2xl font-bold tracking-tight text-ink-950 lg:col-span-2">
        Admin dashboard
      </h1>
      <OutboxList />
      <PublishAgreementForm />
    </div>
  );
}
