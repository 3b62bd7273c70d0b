import { AGREEMENT_MESSAGES } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUser, currentAgreement, longAgreementText, signInContext } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { useOwnServer } from "./support/own-server";
import { acceptAgreementInModal, EXPECTED_401, expectToast } from "./support/ui";

// A new agreement version would block every signed-in page of the files running beside this
// one on the shared server: this file publishes it on a server of its own.
useOwnServer();

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("a new agreement version", () => {
  it("is published in the admin area, then blocks the app until the user accepts it", async () => {
    const user = await createUser();
    const version = `2.${Date.now().toString(36)}`;
    // A session of the user's from before the new version: opened by its address below.
    const created = await fetch(`${baseURL()}/api/sessions`, {
      method: "POST",
      headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Kept behind the agreement" }),
    });
    expect(created.status).toBe(201);
    const { session } = (await created.json()) as { session: { id: string } };

    // The admin publishes the new version in the admin area's Agreements screen.
    const admin = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await admin.page.goto("/admin/login");
    await admin.page.getByLabel("Email address").fill(inject("adminEmail"));
    await admin.page.getByLabel("Password", { exact: true }).fill(inject("adminPassword"));
    await admin.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await admin.page.waitForURL("**/admin/dashboard");
    await admin.page.getByRole("link", { name: "Agreements" }).click();
    const form = admin.page.getByRole("form", { name: "Publish agreement version" });
    await form.getByLabel("Version", { exact: true }).fill(version);
    await form.getByLabel("Effective date").fill("2026-01-15");
    await form.getByLabel("Content").fill(longAgreementText(version));
    await form.getByRole("button", { name: "Publish version" }).click();
    await expectToast(admin.page, `Agreement version ${version} published`);
    expect((await currentAgreement()).version).toBe(version);
    admin.expectNoErrors([EXPECTED_401]);
    await admin.close();

    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 860 },
    });
    await signInContext(page.context(), user.token);
    await page.goto("/dashboard");
    const overlay = page.getByRole("alertdialog", { name: "Agreement Acceptance Required" });
    await overlay.waitFor();
    const gated = page.getByTestId("agreement-gated-content");
    expect(await gated.getAttribute("class")).toContain("blur");
    expect(await gated.getAttribute("inert")).not.toBeNull();
    await screenshot(page, "agreement-required", false);

    // Opened by its address, a session stays behind the gate too: the page boots with the
    // sign-in and agreement checks side by side and asks for the session only once the
    // agreement is accepted (decision 080).
    const sessionReads: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === `/api/sessions/${session.id}`) {
        sessionReads.push(request.url());
      }
    });
    await page.goto(`/chat/${session.id}`);
    await overlay.waitFor();
    expect(await gated.getAttribute("inert")).not.toBeNull();
    expect(await page.getByTestId("conversation").count()).toBe(0);
    expect(await page.getByText("Kept behind the agreement").count()).toBe(0);
    expect(sessionReads).toEqual([]);

    // Closing the modal without a decision is refused for this version.
    await overlay.getByRole("button", { name: "Review Agreement" }).click();
    const dialog = page.getByRole("dialog", { name: "Cohort User Agreement" });
    await dialog.waitFor();
    expect(await dialog.getByTestId("agreement-version").textContent()).toBe(`Version ${version}`);
    expect(await dialog.getByTestId("agreement-effective-date").textContent()).toBe(
      "Effective January 15, 2026",
    );
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await overlay.getByText(AGREEMENT_MESSAGES.declineNotAllowed).waitFor();

    await overlay.getByRole("button", { name: "Review Agreement" }).click();
    await acceptAgreementInModal(page);
    // Accepting reloads the page; the toast is shown after the reload.
    await expectToast(page, "Agreement accepted successfully");
    await page.getByTestId("conversation").waitFor();
    await page.getByText("Kept behind the agreement").first().waitFor();
    expect(await overlay.count()).toBe(0);
    expect(await gated.getAttribute("inert")).toBeNull();
    expectNoErrors();
    await close();
  });
});
