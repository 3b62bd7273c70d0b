import { TEAM_TABS, type TTeamTab, type TWorkspace } from "@cohort/contracts";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { McpServersSettings } from "../mcp-servers/mcp-servers-settings";
import { CreateWorkspaceDialog } from "./create-workspace-dialog";
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

export const TEAM_TAB_LABELS: Record<TTeamTab, string> = {
  members: "Members",
  credits: "Credits and caps",
  usage: "Usage",
  audit: "Audit log",
  settings: "Settings",
};

/** Where a team's pool is filled and its caps set. */
export const TEAM_CREDITS_PATH = "/team/credits";

/** The tabs a role sees: members and viewers have the member list and their membership. */
function tabsFor(team: TWorkspace): readonly TTeamTab[] {
  return canManage(team.role) ? TEAM_TABS : ["members", "settings"];
}

function NoTeam() {
  const [creating, setCreating] = useState(false);
  return (
    <div className="mx-auto grid max-w-xl gap-3 px-6 py-16 text-center">
      <h1 className="text-2xl font-bold tracking-tight text-ink-950">Team</h1>
      <p className="text-sm text-ink-600">
        You are in your personal workspace. A team workspace shares its sessions, documents,
        templates and memory, and pays its runs from one credit pool with a cap per member. Switch
        to a team from the workspace menu, or create one.
      </p>
      <Button className="justify-self-center" onClick={() => setCreating(true)}>
        Create team workspace
      </Button>
      {creating ? <CreateWorkspaceDialog open onOpenChange={setCreating} /> : null}
    </div>
  );
}

function TabPanel({ tab, team, myId }: { tab: TTeamTab; team: TWorkspace; myId: string }) {
  switch (tab) {
    case "members":
      return (
        <>
          <MembersList workspace={team} myId={myId} />
          {canManage(team.role) ? <InvitationsPanel workspace={team} /> : null}
        </>
      );
    case "credits":
      return (
        <>
          <PoolCredits workspace={team} />
          <MemberUsage workspace={team} editCaps />
        </>
      );
    case "usage":
      return <MemberUsage workspace={team} editCaps={false} />;
    case "audit":
      return <WorkspaceAudit workspace={team} />;
    case "settings":
      return (
        <>
          {canManage(team.role) ? <WorkspaceShareLinks workspace={team} /> : null}
          <McpServersSettings workspaceId={team.id} canManage={canManage(team.role)} />
          <WorkspaceAdminActions workspace={team} myId={myId} />
        </>
      );
  }
}

/**
 * /team/:tab? — the team in view, administered on its own screen (decision 057): Members,
 * Credits and caps, Usage, Audit log and Settings, each a tab with its own address. Members
 * and viewers see the member list and their membership only.
 */
export function TeamPage() {
  const { workspace } = useCurrentWorkspace();
  const { user } = useAuth();
  const params = useParams();
  const team = workspace?.kind === "team" ? workspace : null;
  const asked = (params.tab ?? "members") as TTeamTab;
  const tabs = team ? tabsFor(team) : TEAM_TABS;
  const tab = tabs.includes(asked) ? asked : "members";
  useDocumentMeta({ title: team ? `${team.name} · ${TEAM_TAB_LABELS[tab]}` : "Team" });
  if (!user) return null;
  if (!team) return <NoTeam />;
  return (
    <div className="mx-auto grid max-w-4xl gap-6 px-4 py-8 sm:px-6 lg:px-10 lg:py-10">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">{team.name}</h1>
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
      </header>
      <nav aria-label="Team sections" className="-mx-1 overflow-x-auto">
        <ul className="flex min-w-max gap-1 border-b border-ink-200 px-1">
          {tabs.map((item) => (
            <li key={item}>
              <Link
                to={`/team/${item}`}
                aria-current={item === tab ? "page" : undefined}
                className={cn(
                  "-mb-px inline-block border-b-2 px-3 py-2 text-sm font-semibold whitespace-nowrap",
                  item === tab
                    ? "border-brand-600 text-brand-800"
                    : "border-transparent text-ink-600 hover:border-ink-300 hover:text-ink-900",
                )}
              >
                {TEAM_TAB_LABELS[item]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section
        aria-label={TEAM_TAB_LABELS[tab]}
        className="grid gap-8 rounded-2xl border border-ink-200 bg-white p-5 shadow-xs sm:p-6"
        data-testid="team-panel"
        data-tab={tab}
      >
        <TabPanel key={team.id} tab={tab} team={team} myId={user.id} />
      </section>
    </div>
  );
}
