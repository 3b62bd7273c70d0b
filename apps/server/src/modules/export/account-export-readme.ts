/** README.txt of the data zip: what each part is, for someone opening it years later. */
export const ACCOUNT_ZIP_README = `Your Cohort data
================

This archive is a copy of everything Cohort stores about your account, made when you
chose "Download my data" in Settings. All files are UTF-8; amounts of credits are in
credits (two decimals), times in UTC (ISO 8601).

README.txt        This file.
profile.json      Your profile, how you sign in (password yes/no, linked Google
                  accounts), the user agreements you accepted and your settings (memory,
                  analytics opt-out, the providers you stored keys for and your API access
                  tokens, by their visible hints only: no secret is included).
workspaces.json   The workspaces you belong to and your role in each.
sessions/         One file per session you created, in any workspace, named
                  <date>-<title>-<id>.json: the lossless session export (messages, plan,
                  every step with role, model, provider, tokens, cost, critic scores,
                  revisions and citations). Import on the dashboard reads them back.
cochat/           One file per CoChat conversation, with its messages.
documents.json    The documents you uploaded: name, type, size, pages, status, the
                  sessions they are attached to, and where the original file is below.
documents/        The original files, as you uploaded them, named <id>-<file name>.
memories.json     Your memories (approved and proposed) and the memory settings.
ledger.json       Your personal credit account: its balance, every ledger entry (grants,
                  purchases, charges for runs) and every model call it paid for.
`;
