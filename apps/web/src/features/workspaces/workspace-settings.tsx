import { useEffect } from "react";
import { useLocation } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { Card } from "../../components/card";
import { useCurrentWorkspace } from "./current-workspace";
import { InvitationsPanel } from "./invitations-panel";
import { canManage } from "./member-permissions";
import { MemberUsage } from "./member-usage";
import { MembersList } from "./members-list";
import { PoolCredits } from "./pool-credits";
import { WorkspaceAdminActions } from "./workspace-admin-actions";
import { WorkspaceAudit } from "./workspace-audit";
import { VIEWER_NOTICE, workspaceKindLabel } from "./workspace-labels";
import { WorkspaceShareLinks } from "./workspace-share-links";

export const WORKSPACE_SECTION_ID = "workspace";

/**
 * Settings → Workspace, for the team in view (decision 040): members and roles, invitations,
 * the pool with per-member caps and usage, the audit log, and rename/delete/leave. Each part
 * shows only what the caller's role may do; a personal workspace has no such section.
 */
export function WorkspaceSettings() {
  const { workspace } = useCurrentWorkspace();
  const { user } = useAuth();
  const { hash } = useLocation();
  const team = workspace?.kind === "team" ? workspace : null;

  // The credit widget's "Add credits" links here (/settings#workspace).
  useEffect(() => {
    if (team && hash === `#${WORKSPACE_SECTION_ID}`) {
      document.getElementById(WORKSPACE_SECTION_ID)?.scrollIntoView();
    }
  }, [team, hash]);

  if (!team || !user) return null;
  const manager = canManage(team.role);
  return (
    <Card
      id={WORKSPACE_SECTION_ID}
      role="region"
      aria-labelledby="workspace-title"
      className="grid scroll-mt-6 gap-6 p-5 sm:p-6"
      data-testid="workspace-settings"
    >
      <div>
        <h2 id="workspace-title" className="text-base font-semibold text-ink-950">
          Workspace: {team.name}
        </h2>
        <p className="mt-1 text-sm text-ink-600">
          {workspaceKindLabel(team)} · {team.member_count}{" "}
          {team.member_count === 1 ? "member" : "members"}
        </p>
        {team.role === "viewer" ? (
          <p
            className="mt-3 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            data-testid="workspace-viewer-notice"
          >
            {VIEWER_NOTICE}
          </p>
        ) : null}
      </div>
      <MembersList workspace={team} myId={user.id} />
      {manager ? <InvitationsPanel workspace={team} /> : null}
      {manager ? <PoolCredits workspace={team} /> : null}
      {manager ? <MemberUsage workspace={team} /> : null}
      {manager ? <WorkspaceAudit workspace={team} /> : null}
      {manager ? <WorkspaceShareLinks workspace={team} /> : null}
      <WorkspaceAdminActions workspace={team} myId={user.id} />
    </Card>
  );
}
