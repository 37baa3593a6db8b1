// A module with nothing for the bench program to run.
module @empty attributes {nn.batch_size = 1 : i64} {
}
