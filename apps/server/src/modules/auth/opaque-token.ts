/** Moved to the platform (workspace invitations use them too; workspaces cannot import auth). */
export { hashOpaqueToken, newOpaqueToken } from "../../platform/opaque-token";
