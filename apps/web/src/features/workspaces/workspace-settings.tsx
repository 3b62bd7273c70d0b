import { Link } from "react-router";
import { Card } from "../../components/card";
import { SectionHeader } from "../../components/section-header";
import { useCurrentWorkspace } from "./current-workspace";
import { workspaceKindLabel } from "./workspace-labels";

export const WORKSPACE_SECTION_ID = "workspace";

/**
 * Settings → Workspace: which workspace is in view and where its team is administered. The
 * members, pool, caps, usage and audit log have their own screen, /team (decision 057).
 */
export function WorkspaceSettings() {
  const { workspace } = useCurrentWorkspace();
  const team = workspace?.kind === "team" ? workspace : null;
  if (!team) return null;
  return (
    <Card
      id={WORKSPACE_SECTION_ID}
      role="region"
      aria-labelledby="workspace-title"
      className="flex flex-wrap items-center justify-between gap-3 p-5 sm:p-6"
      data-testid="workspace-settings"
    >
      <div>
        <SectionHeader
          id="workspace-title"
          title={`Workspace: ${team.name}`}
          lead={`${workspaceKindLabel(team)} · ${team.member_count} ${
            team.member_count === 1 ? "member" : "members"
          }. Memory, templates and documents on this page are this workspace's.`}
        />
      </div>
      <Link
        to="/team"
        className="rounded-lg border border-ink-300 px-3 py-2 text-sm font-semibold text-ink-900 hover:bg-ink-50"
      >
        Manage the team
      </Link>
    </Card>
  );
}
