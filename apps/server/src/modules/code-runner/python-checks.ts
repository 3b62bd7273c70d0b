/**
 * run_code's test discovery for Python (decision 062), one definition for both runners: the
 * sandbox (sandbox-child.mjs, which gets it from sandbox.ts at start: the child reads no
 * file but its own) and an operator's Jupyter kernel (jupyter-runner.ts, as a cell). Given
 * the namespace the code ran in, it runs its `test*` functions and unittest cases, prints
 * each failure to stderr as `FAILED name: error`, and returns the counts.
 */
export const PYTHON_CHECKS = `
def _cohort_checks(namespace):
    import inspect, sys, traceback, unittest
    checks = {'ran': 0, 'passed': 0, 'failed': 0, 'failures': []}
    def record(name, fn):
        checks['ran'] += 1
        try:
            fn()
            checks['passed'] += 1
        except BaseException as e:
            checks['failed'] += 1
            checks['failures'].append(name)
            print('FAILED ' + name + ': ' + ''.join(traceback.format_exception_only(type(e), e)).strip(), file=sys.stderr)
    for name, value in list(namespace.items()):
        if name.startswith('test') and inspect.isfunction(value) and value.__module__ == '__main__':
            record(name, value)
        elif inspect.isclass(value) and issubclass(value, unittest.TestCase) and value is not unittest.TestCase:
            for method in unittest.TestLoader().getTestCaseNames(value):
                def run_case(case=value(method)):
                    result = unittest.TestResult()
                    case.run(result)
                    problems = result.failures + result.errors
                    if problems:
                        raise AssertionError(problems[0][1].strip().splitlines()[-1])
                record(method, run_case)
    sys.stderr.flush()
    return checks
`;
