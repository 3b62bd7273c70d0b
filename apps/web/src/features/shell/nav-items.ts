/** The route table App shell: the sidebar's links, in order ({product} Chat = Cohort Chat). */
export const APP_NAV_ITEMS = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/chat", label: "Cohort Chat" },
  { to: "/cochat", label: "CoChat" },
  { to: "/billing", label: "Billing" },
  { to: "/documents", label: "Documents" },
  { to: "/settings", label: "Settings" },
] as const;
