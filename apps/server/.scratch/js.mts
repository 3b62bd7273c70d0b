import { z } from "zod";
import { ZRunPlan } from "/work/main/packages/contracts/src/models.ts";
import { zodSchema } from "ai";
console.log(JSON.stringify(await zodSchema(ZRunPlan).jsonSchema, null, 1));
