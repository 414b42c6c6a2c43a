# Pure-Perl stand-in for the XS `mro` module, which zeroperl (static WebAssembly Perl) cannot load.
# overload.pm needs mro::get_linear_isa when ExifTool writes PDFs. Depth-first order only (Perl's
# default); ExifTool declares no C3 classes. Part of edge-convert; same license as Perl.
package mro;
use strict;
our $VERSION = '1.29';
sub get_linear_isa {
    my ($class) = @_;
    my (@out, %seen);
    my @todo = ($class);
    while (@todo) {
        my $c = shift @todo;
        next if $seen{$c}++;
        push @out, $c;
        no strict 'refs';
        unshift @todo, @{"${c}::ISA"};
    }
    return \@out;
}
sub set_mro { }
sub get_mro { 'dfs' }
sub get_isarev { [] }
sub is_universal { $_[0] eq 'UNIVERSAL' }
sub invalidate_all_method_caches { }
sub get_pkg_gen { 1 }
1;
