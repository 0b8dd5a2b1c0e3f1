import { SlackApiError } from '../api-error.js';
import type { FunctionParameter } from '../app-manifest.js';
import type { MethodContext, MethodHandler } from './context.js';
import { requiredString } from './context.js';

/** The execution a call names, as Slack refuses one it does not know or that has already ended. */
function runningExecution(ctx: MethodContext) {
  const id = requiredString(ctx.args, 'function_execution_id');
  const execution = ctx.state.functions.get(id);
  if (!execution) throw new SlackApiError('function_execution_not_found');
  if (execution.state !== 'running') throw new SlackApiError('execution_not_in_running_state');
  return execution;
}

/** JSON bodies carry objects; form bodies carry them as JSON text. */
function objectArg(ctx: MethodContext, key: string): Record<string, unknown> | undefined {
  let value = ctx.args[key];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function typeProblem(parameter: FunctionParameter, value: unknown): string | undefined {
  const ok =
    parameter.type === 'integer'
      ? Number.isInteger(value)
      : parameter.type === 'number'
        ? typeof value === 'number' && Number.isFinite(value)
        : parameter.type === 'boolean'
          ? typeof value === 'boolean'
          : typeof value === 'string';
  return ok ? undefined : `output '${parameter.name}' must be of type ${parameter.type}`;
}

/** Outputs are checked against the step's output_parameters, as Slack does (parameter_validation_failed). */
const completeSuccess: MethodHandler = (ctx) => {
  const execution = runningExecution(ctx);
  const outputs = objectArg(ctx, 'outputs');
  if (!outputs) throw new SlackApiError('invalid_arguments', ['[ERROR] missing required field: outputs']);
  const problems: string[] = [];
  for (const parameter of execution.definition.outputs) {
    const value = outputs[parameter.name];
    if (value === undefined || value === null) {
      if (parameter.is_required) problems.push(`missing required output '${parameter.name}'`);
      continue;
    }
    const problem = typeProblem(parameter, value);
    if (problem) problems.push(problem);
  }
  const known = new Set(execution.definition.outputs.map((p) => p.name));
  for (const name of Object.keys(outputs)) if (!known.has(name)) problems.push(`unknown output '${name}'`);
  if (problems.length > 0) throw new SlackApiError('parameter_validation_failed', problems);
  ctx.state.functions.end(execution.id, { outputs });
  return {};
};

const completeError: MethodHandler = (ctx) => {
  const execution = runningExecution(ctx);
  const error = requiredString(ctx.args, 'error');
  ctx.state.functions.end(execution.id, { error });
  return {};
};

export const functionMethods: Record<string, MethodHandler> = {
  'functions.completeSuccess': completeSuccess,
  'functions.completeError': completeError,
};
