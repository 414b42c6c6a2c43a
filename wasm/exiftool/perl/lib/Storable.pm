# Pure-Perl stand-in for the XS `Storable` module, which zeroperl (static WebAssembly Perl) lacks.
# Encode.pm says `use Storable` and calls only Storable::dclone (to copy encoding objects); nothing
# in ExifTool freezes or stores data. Part of edge-convert; same license as Perl.
package Storable;
use strict;
our $VERSION = '3.32';
sub dclone {
    my ($v) = @_;
    my $r = ref $v or return $v;
    my $class = Scalar::Util::blessed($v);
    my $t = Scalar::Util::reftype($v);
    my $copy = $t eq 'HASH' ? { map { ($_ => dclone($v->{$_})) } keys %$v }
             : $t eq 'ARRAY' ? [ map { dclone($_) } @$v ]
             : $t eq 'SCALAR' || $t eq 'REF' ? \(my $s = dclone($$v))
             : $v;
    return defined $class ? bless($copy, $class) : $copy;
}
require Scalar::Util;
1;
