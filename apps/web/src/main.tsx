import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter, useRoutes } from "react-router";
import { boot } from "./boot";
import { createQueryClient } from "./lib/api/query-client";
import { buildRouteObjects } from "./routes";
import "./styles.css";

const container = document.getElementById("root");
if (!container) throw new Error("index.html must contain an element with id root");

boot(window.location.pathname);
const queryClient = createQueryClient();
const routes = buildRouteObjects();

function AppRoutes() {
  return useRoutes(routes);
}

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
