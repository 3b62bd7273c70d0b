import { DropdownMenu } from "radix-ui";
import { useState } from "react";
import { useNavigate } from "react-router";
import { cn } from "../../components/cn";
import { CheckIcon, UpDownIcon } from "../../components/icons";
import { MenuContent, MenuSeparator, menuItemClass } from "../../components/menu";
import { CreateWorkspaceDialog } from "./create-workspace-dialog";
import { useCurrentWorkspace } from "./current-workspace";
import { workspaceKindLabel } from "./workspace-labels";

function Initial({ name, team }: { name: string; team: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-8 shrink-0 items-center justify-center rounded-lg text-sm font-bold",
        team ? "bg-brand-600 text-white" : "bg-ink-100 text-ink-700",
      )}
    >
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/**
 * The shell's workspace switcher (decision 040): the workspace in view with its kind and the
 * user's role, the others to switch to, and "Create team workspace…". Sidebar and mobile
 * drawer draw the same component.
 */
export function WorkspaceSwitcher() {
  const { workspace, workspaces, switchTo } = useCurrentWorkspace();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  if (!workspace) return null;
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          className="flex w-full min-w-0 items-center gap-3 rounded-xl border border-ink-200 bg-white px-2.5 py-2 text-left hover:bg-ink-50 focus-visible:outline-2 focus-visible:outline-brand-500"
          aria-label={`Workspace: ${workspace.name} (${workspaceKindLabel(workspace)}). Switch workspace`}
          data-testid="workspace-switcher"
        >
          <Initial name={workspace.name} team={workspace.kind === "team"} />
          <span className="min-w-0 flex-1">
            <span
              className="block truncate text-sm font-semibold text-ink-950"
              data-testid="workspace-current-name"
            >
              {workspace.name}
            </span>
            <span className="block truncate text-xs text-ink-500">
              {workspaceKindLabel(workspace)}
            </span>
          </span>
          <UpDownIcon className="size-4 shrink-0 text-ink-400" />
        </DropdownMenu.Trigger>
        <MenuContent
          align="start"
          className="z-[60] w-[var(--radix-dropdown-menu-trigger-width)] min-w-64"
        >
          <DropdownMenu.Label className="px-3 pt-2 pb-1 text-xs font-medium tracking-wide text-ink-500 uppercase">
            Workspaces
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={workspace.id} onValueChange={switchTo}>
            {workspaces.map((item) => (
              <DropdownMenu.RadioItem key={item.id} value={item.id} className={menuItemClass}>
                <Initial name={item.name} team={item.kind === "team"} />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium">{item.name}</span>
                  <span className="block truncate text-xs text-ink-500">
                    {workspaceKindLabel(item)}
                  </span>
                </span>
                <DropdownMenu.ItemIndicator className="text-brand-700">
                  <CheckIcon />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          <MenuSeparator />
          {workspace.kind === "team" ? (
            <DropdownMenu.Item className={menuItemClass} onSelect={() => navigate("/team")}>
              <span
                aria-hidden="true"
                className="flex size-8 items-center justify-center rounded-lg bg-ink-100 text-ink-600"
              >
                ⚙
              </span>
              Manage {workspace.name}…
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Item className={menuItemClass} onSelect={() => setCreating(true)}>
            <span
              aria-hidden="true"
              className="flex size-8 items-center justify-center rounded-lg border border-dashed border-ink-300 text-ink-500"
            >
              +
            </span>
            Create team workspace…
          </DropdownMenu.Item>
        </MenuContent>
      </DropdownMenu.Root>
      {creating ? <CreateWorkspaceDialog open onOpenChange={setCreating} /> : null}
    </>
  );
}
