// One way to choose ports for the bench, the fault run and the tests (bench/stack.ts says why).
export { freePort } from '../../bench/stack';
