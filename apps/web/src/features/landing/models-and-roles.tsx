import { NATIVE_MODELS } from "@cohort/contracts";
import { MarketingSection } from "../../components/marketing/marketing-section";
import { RoleGrid } from "../../components/marketing/role-grid";
import { SectionHeading } from "../../components/marketing/section-heading";
import { EXTERNAL_MODEL_FAMILIES } from "../../content/agent-roles";

export function ModelsAndRoles() {
  return (
    <MarketingSection id="team-title" spacing="landing" className="grid gap-14 lg:grid-cols-2">
      <div>
        <SectionHeading
          id="team-title"
          eyebrow="The team"
          title="Four roles, each with a job"
          lead="The coordinator hands each role the part of the task it's built for. Choose the model behind every role, or keep the defaults."
        />
        <RoleGrid className="mt-10 space-y-4" />
      </div>
      <div>
        <h2 className="text-2xl font-bold tracking-tight text-ink-950">
          Native Co* models, built for teamwork
        </h2>
        <p className="mt-3 text-ink-600">
          Alongside {EXTERNAL_MODEL_FAMILIES.join(", ").replace(/, ([^,]*)$/, " and $1")}, Cohort
          ships its own models, each tuned for one kind of work.
        </p>
        <ul className="mt-8 grid gap-3 sm:grid-cols-2">
          {NATIVE_MODELS.map((model) => (
            <li key={model.id} className="rounded-2xl border border-ink-200 p-5">
              <p className="font-semibold text-ink-950">{model.name}</p>
              <p className="mt-1 text-sm text-ink-600">{model.purpose}</p>
            </li>
          ))}
        </ul>
        <p className="mt-6 text-sm text-ink-600">
          CoChat is also a chat of its own: one model, one conversation, unlimited on Pro and Pro+.
        </p>
      </div>
    </MarketingSection>
  );
}
